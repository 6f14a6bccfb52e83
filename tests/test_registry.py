"""What a card may be is read from the registered games (domain.games): the API's validation
looks it up when it validates, and the hand-written spec says the same."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
import yaml
from marshmallow import ValidationError

from api.schemas.common import CardSchema
from domain import games
from domain.games import card_ranks, card_suits
from domain.kit.cards import Card

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"


@cache
def spec_schemas() -> dict:
    return yaml.safe_load(SPEC.read_text())["components"]["schemas"]


def spec_schema(name: str) -> dict:
    return spec_schemas()[name]


def test_the_suits_and_ranks_are_every_registered_games_own():
    dealt = {card for game in games.GAME_TYPES.values() for card in game.cards}
    assert set(card_suits()) == {card.suit for card in dealt}
    assert card_ranks() == (1, 15) == (min(c.rank for c in dealt), max(c.rank for c in dealt))


def test_the_specs_suit_enum_and_rank_bounds_are_the_registered_games_own():
    assert set(spec_schema("Suit")["enum"]) == set(card_suits())
    assert len(spec_schema("Suit")["enum"]) == len(card_suits())
    rank = spec_schema("Card")["properties"]["rank"]
    assert (rank["minimum"], rank["maximum"]) == card_ranks()


def test_a_card_of_no_registered_game_is_refused():
    with pytest.raises(ValidationError) as refused:
        CardSchema().load({"suit": "moon", "rank": 16})
    assert set(refused.value.messages) == {"suit", "rank"}


def test_a_game_registered_later_has_its_cards_accepted(monkeypatch):
    moons = (Card("moon", 20), Card("moon", 0))
    later = replace(games.GAME_TYPES["trick_and_snipers"], id="moon_game", cards=moons)
    monkeypatch.setitem(games.GAME_TYPES, later.id, later)
    assert CardSchema().load({"suit": "moon", "rank": 20}) == {"suit": "moon", "rank": 20}
    assert CardSchema().load({"suit": "red", "rank": 0}) == {"suit": "red", "rank": 0}
