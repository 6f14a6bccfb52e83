"""Opaque list cursors: the (created_at, id) of the last game of a page, base64-encoded."""

from __future__ import annotations

import base64
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
        raise Problem(
            "validation-error",
            "the cursor is not one this server gave",
            errors={"cursor": ["invalid"]},
        ) from None
