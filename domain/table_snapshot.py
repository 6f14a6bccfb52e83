"""A table as JSON and back, for snapshots: an optimisation of loading, never the truth (a
snapshot that cannot be read is ignored and the events are folded instead)."""

from __future__ import annotations

from domain.cards import Card
from domain.codec import from_json, to_json
from domain.game_type import GameType
from domain.table import SeatInfo, Table


def table_to_json(table: Table) -> dict:
    return {
        "game_type": table.game_type.id,
        "seats": to_json(table.seats),
        "options": to_json(dict(table.options)),
        "fixed_decks": to_json(table.fixed_decks),
        "deals_made": table.deals_made,
        "game": to_json(table.game),
    }


def table_from_json(game_type: GameType, data: dict) -> Table:
    if game_type.state_type is None or data["game_type"] != game_type.id:
        raise ValueError(f"no snapshot of a {game_type.id} table")
    return Table(
        game_type=game_type,
        seats=from_json(tuple[SeatInfo, ...], data["seats"]),
        options=data["options"],
        game=from_json(game_type.state_type, data["game"]),
        fixed_decks=from_json(tuple[tuple[Card, ...], ...], data["fixed_decks"]),
        deals_made=data["deals_made"],
    )
