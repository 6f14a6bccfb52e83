"""Every event of every game comes from somewhere an auditor can name (domain/kit/origins.py), and
every action a seat can take is recorded by exactly one choice event that carries its fields."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from domain.games import GAME_TYPES
from domain.kit.origins import DEAL_EVENTS, event_origin
from domain.tables.table import TABLE_EVENTS

GAMES = sorted(GAME_TYPES)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_of_every_game_has_an_origin(game_id):
    game = GAME_TYPES[game_id]
    origins = {name: event_origin(game, name) for name in [*TABLE_EVENTS, *game.events]}
    assert set(origins.values()) <= {"setup", "choice", "timeout", "deal", "derived"}
    assert origins["TableCreated"] == origins["FixedDecksChosen"] == "setup"
    assert origins["SeatJoined"] == origins["SeatLeft"] == "choice"
    assert origins["TurnTimedOut"] == "timeout"
    assert {name for name, origin in origins.items() if origin == "deal"} == DEAL_EVENTS
    assert origins["GameEnded"] == "derived"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_action_is_rebuilt_from_exactly_one_choice_event(game_id):
    game = GAME_TYPES[game_id]
    assert set(game.choices) <= set(game.events)
    assert Counter(game.choices.values()) == Counter(game.action_types)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_choice_event_carries_every_field_of_its_command(game_id):
    game = GAME_TYPES[game_id]
    for event_name, action in game.choices.items():
        command_fields = {f.name for f in dataclasses.fields(game.commands[action])}
        event_fields = {f.name for f in dataclasses.fields(game.events[event_name])}
        assert command_fields <= event_fields, (event_name, action)
