"""Events and games as a given caller may see them."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from api.services import services
from domain.table import Table
from domain.table_view import view_table
from events.chain import timestamp
from events.event_text import event_json as render_event

__all__ = ["iso", "render_event", "render_game"]


def iso(moment: datetime) -> str:
    """One spelling of a moment everywhere, the one the hash chain covers."""
    return timestamp(moment)


def render_game(
    game_id: UUID, version: int, table: Table, viewer: int | None, live: bool = True
) -> dict[str, Any]:
    """The game as `viewer` sees it; `live` (not a replay): seats whose turn runs out on a
    timer carry their `deadline`."""
    view = {"id": str(game_id), "version": version, **view_table(table, viewer)}
    if live and table.options.get("turn_seconds") is not None and table.status == "active":
        deadlines = services().queries.deadlines(game_id)
        for seat in view["seats"]:
            if seat["seat"] in deadlines:
                seat["deadline"] = iso(deadlines[seat["seat"]])
    return view
