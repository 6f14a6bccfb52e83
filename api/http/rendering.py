"""Events and games as a given caller may see them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.tables.table import Table
from domain.tables.view import view_once_over, view_table
from events.audit.chain import timestamp
from events.event_text import event_json as render_event

__all__ = ["iso", "render_event", "render_game"]


def iso(moment: datetime) -> str:
    """One spelling of a moment everywhere, the one the hash chain covers."""
    return timestamp(moment)


def render_game(
    game_id: UUID,
    version: int,
    table: Table,
    viewer: int | None,
    deadlines: Mapping[int, datetime],
    game_over: bool = False,
) -> dict[str, Any]:
    """The game as `viewer` sees it; the seats in `deadlines` (a timed table's turns, as the
    command that wrote the game or the read that loaded it found them; none in a replay) carry
    their `deadline`. `game_over`: the game is over by now (`table` may be an earlier version
    of it, in a replay), so everyone sees every seat's cards. Reads nothing: what it shows is
    given."""
    viewed = view_once_over if game_over else view_table
    view = {"id": str(game_id), "version": version, **viewed(table, viewer)}
    for seat in view["seats"]:
        if seat["seat"] in deadlines:
            seat["deadline"] = iso(deadlines[seat["seat"]])
    return view
