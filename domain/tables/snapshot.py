"""A table as JSON and back, for snapshots: an optimisation of loading, never the truth (a
snapshot that cannot be read is ignored and the events are folded instead)."""

from __future__ import annotations

from typing import Any

from domain.kit.cards import Card
from domain.kit.codec import from_json, to_json
from domain.kit.game_type import GameType
from domain.shared.seeds import TableSeeds
from domain.tables.table import SeatInfo, Table

# The table's own fields besides the game and its type, each with how to read it back.
FIELDS = {
    "seats": tuple[SeatInfo, ...],
    "fixed_decks": tuple[tuple[Card, ...], ...],
    "deals_made": int,
    "version": int,
    "waiting": tuple[tuple[int, int], ...],
    "timeouts": tuple[int, ...],
    "timing_out": int | None,
    "left": tuple[int, ...],
    "seeds": TableSeeds | None,
}


def table_to_json(table: Table) -> dict[str, Any]:
    data = {name: to_json(getattr(table, name)) for name in FIELDS}
    data |= {
        "game_type": table.game_type.id,
        "options": to_json(dict(table.options)),
        "game": to_json(table.game),
    }
    return data


def table_from_json(game_type: GameType, data: dict[str, Any]) -> Table:
    if game_type.state_type is None or data["game_type"] != game_type.id:
        raise ValueError(f"no snapshot of a {game_type.id} table")
    return Table(
        game_type=game_type,
        options=data["options"],
        game=from_json(game_type.state_type, data["game"]),
        **{name: from_json(kind, data[name]) for name, kind in FIELDS.items()},
    )
