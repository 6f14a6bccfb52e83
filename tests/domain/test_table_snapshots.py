"""A table survives the snapshot codec (domain.tables.snapshot) unchanged, at every kind of step
of every game at every table size: the codec gives back the very types it was given."""

from __future__ import annotations

import json
import random

import pytest

from domain.games import GAME_TYPES
from domain.kit.cards import Card
from domain.kit.codec import from_json, to_json
from domain.tables import table as tables
from domain.tables.selfplay import bot_table, steps
from domain.tables.snapshot import table_from_json, table_to_json

SETUPS = [
    (game_id, players)
    for game_id, game in sorted(GAME_TYPES.items())
    for players in range(game.min_players, game.max_players + 1)
]


def through_json(table: tables.Table) -> tables.Table:
    stored = json.loads(json.dumps(table_to_json(table)))  # as the snapshots table holds it
    return table_from_json(table.game_type, stored)


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
def test_a_table_at_any_step_of_a_self_played_game_comes_back_equal(game_id, players):
    game = GAME_TYPES[game_id]
    for seed in (1, 2):
        table, _ = bot_table(game, (["random", "basic"] * 3)[:players])
        assert through_json(table) == table
        for index, step in enumerate(steps(table, random.Random(seed))):
            assert through_json(step.table) == step.table, (seed, index)


def test_a_table_with_fixed_decks_and_joined_seats_comes_back_equal():
    game = GAME_TYPES["trick_and_snipers"]
    deck = game.cards_to_deal(game.new_game(3, {}))
    seats = (tables.SeatInfo(tables.OPEN),) * 3
    created = tables.TableCreated(game.id, seats, {"first_leader": 1})
    table = tables.create(game, created)
    for event in (tables.FixedDecksChosen((deck,)), tables.SeatJoined(2, "Ann")):
        table = tables.evolve(table, event)
    assert through_json(table) == table


@pytest.mark.parametrize(
    ("hint", "value"),
    [
        (dict[int, tuple[Card, ...]], {0: (Card("red", 1),), 12: ()}),
        (list[Card], [Card("red", 1), Card("blue", 2)]),
        (dict[str, list[Card]], {"pile": [Card("snake", 9)]}),
        (tuple[int, str], (1, "a")),
        (Card | None, None),
    ],
)
def test_the_codec_gives_back_the_types_it_was_given(hint, value):
    back = from_json(hint, json.loads(json.dumps(to_json(value))))
    assert back == value and type(back) is type(value)
    if isinstance(value, dict):
        assert [type(key) for key in back] == [type(key) for key in value]
