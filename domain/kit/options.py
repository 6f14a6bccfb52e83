"""Checks of a new game's setup that several games share: the number of players and the
`first_leader` option (G4). Each raises InvalidSetup, reported as a validation error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kit.decider import InvalidSetup


def check_players(game_name: str, players: int, low: int, high: int) -> None:
    if not low <= players <= high:
        raise InvalidSetup(f"{game_name} is for {low} to {high} players")


def check_first_leader(players: int, options: Mapping[str, Any]) -> None:
    """G4: the option names the seat that leads first (None: a random pick at the deal)."""
    leader = options.get("first_leader")
    if leader is None:
        return
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < players:
        raise InvalidSetup(f"first_leader must be a seat from 0 to {players - 1}")


def first_leader_schema(players: int) -> Mapping[str, Mapping[str, Any]]:
    """The API's description of `first_leader` at this table size (null: a random seat)."""
    return {
        "first_leader": {
            "description": "The seat that leads first; absent or null: a random seat (G4).",
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": players - 1,
        }
    }
