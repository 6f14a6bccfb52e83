"""Opaque list cursors, base64-encoded: the (created_at, id) of the last game of a page, or
where a leaderboard page ended (its last player's display, rated games, id, rank and position:
a cursor of the older shape, without the games, is not one this server gives any more)."""

from __future__ import annotations

import base64
import math
from datetime import datetime
from uuid import UUID

from api.http.problems import Problem
from events.ratings import LeaderPosition


def encode_cursor(position: tuple[datetime, UUID]) -> str:
    created_at, game_id = position
    return base64.urlsafe_b64encode(f"{created_at.isoformat()}|{game_id}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[datetime, UUID]:
    try:
        created_at, game_id = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
        moment = datetime.fromisoformat(created_at)
        if moment.tzinfo is None:
            raise ValueError("naive")
        return moment, UUID(game_id)
    except (ValueError, UnicodeError):
        raise _not_ours() from None


def encode_rating_cursor(position: LeaderPosition) -> str:
    text = (
        f"{position.display!r}|{position.games}|{position.player_id}"
        f"|{position.rank}|{position.position}"
    )
    return base64.urlsafe_b64encode(text.encode()).decode()


def decode_rating_cursor(cursor: str) -> LeaderPosition:
    try:
        display, games, player_id, rank, position = (
            base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
        )
        decoded = LeaderPosition(
            float(display), int(games), UUID(player_id), int(rank), int(position)
        )
        if (
            not math.isfinite(decoded.display)
            or not 0 <= decoded.games < 2**31
            or not 1 <= decoded.rank <= decoded.position
        ):
            raise ValueError("not a leaderboard position")
        return decoded
    except (ValueError, UnicodeError):
        raise _not_ours() from None


def _not_ours() -> Problem:
    return Problem(
        "validation-error", "the cursor is not one this server gave", errors={"cursor": ["invalid"]}
    )
