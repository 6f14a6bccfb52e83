"""Opaque list cursors, base64-encoded: the (created_at, id) of the last game of a page, or the
(display, player id) of a leaderboard page's last player."""

from __future__ import annotations

import base64
import math
from datetime import datetime
from uuid import UUID

from api.problems import Problem


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


def encode_rating_cursor(position: tuple[float, UUID]) -> str:
    display, player_id = position
    return base64.urlsafe_b64encode(f"{display!r}|{player_id}".encode()).decode()


def decode_rating_cursor(cursor: str) -> tuple[float, UUID]:
    try:
        display, player_id = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
        value = float(display)
        if not math.isfinite(value):
            raise ValueError("not a rating")
        return value, UUID(player_id)
    except (ValueError, UnicodeError):
        raise _not_ours() from None


def _not_ours() -> Problem:
    return Problem(
        "validation-error", "the cursor is not one this server gave", errors={"cursor": ["invalid"]}
    )
