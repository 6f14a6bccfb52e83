"""Bearer seat tokens. No token: a spectator. A wrong token, or one of another game: 401."""

from __future__ import annotations

from uuid import UUID

from flask import request

from api.http.problems import Problem
from api.services import services
from events.errors import INVALID_TOKEN
from events.player_records import PlayerRow

MAX_TOKEN_LENGTH = 256


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        token = None
    else:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Problem("unauthorized", "use 'Authorization: Bearer <seat token>'")
    return token.strip() if token else None


def current_player() -> PlayerRow:
    """The player whose key the request carries (401 otherwise)."""
    token = bearer_token()
    if token is None:
        raise Problem("unauthorized", "use 'Authorization: Bearer <player key>'")
    player = services().players.by_key(token) if len(token) <= MAX_TOKEN_LENGTH else None
    if player is None:
        raise Problem("unauthorized", "that is not a player's key (or no longer is)")
    return player


def require_seat(game_id: UUID, seat: int) -> None:
    """The request must carry the token of this very seat (401 otherwise)."""
    token = bearer_token()
    if token is None:
        raise Problem("unauthorized", f"use the token of seat {seat}")
    if caller_seat(game_id, token) != seat:
        raise Problem("unauthorized", f"this token does not act for seat {seat}")


def checked_seat(token: str | None, seat: int | None) -> int | None:
    """The seat a token was found to act for; None for a spectator (no token); 401 for a token
    that acts for no seat of this game."""
    if token is not None and seat is None:
        raise Problem("unauthorized", INVALID_TOKEN)
    return seat


def caller_seat(game_id: UUID, token: str | None) -> int | None:
    """The seat the token acts for, None for a spectator (no token)."""
    if token is None:
        return None
    seat = None
    if len(token) <= MAX_TOKEN_LENGTH:
        seat = services().queries.seat_for(game_id, token)
    if seat is None:
        raise Problem("unauthorized", INVALID_TOKEN)
    return seat
