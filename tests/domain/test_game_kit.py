"""The contract of a game (domain.kit.build, domain.kit.game_state): what every registered game's
state has, what the builder fills in, and an evolve that fails on an event it does not know."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from domain.games import GAME_TYPES
from domain.games.trick_and_snipers import GAME as TRICK_AND_SNIPERS
from domain.kit.build import build_game
from domain.kit.cards import Card
from domain.kit.decider import Event, InvalidSetup
from domain.kit.dispatch import UnknownEvent, evolver
from domain.kit.game_state import GameState
from domain.kit.templates import random_bot
from domain.shared.dealing import DeckSealed
from domain.shared.passing import PassingState
from domain.shared.tricks import PlayCard, TrickState

GAMES = sorted(GAME_TYPES)
TRICK_GAMES = ["ouroboros_trick", "st_patrick", "trick_and_snipers"]
PASSING_GAMES = ["st_patrick", "trick_and_snipers"]


def members(protocol: type) -> set[str]:
    """The fields a state protocol names, its bases' included."""
    return {
        name
        for cls in protocol.__mro__
        for name, value in vars(cls).items()
        if isinstance(value, property)
    }


def fields_of(game_id: str) -> set[str]:
    return {field.name for field in dataclasses.fields(GAME_TYPES[game_id].state_type)}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_state_has_the_fields_the_shared_helpers_rely_on(game_id):
    assert members(GameState) == {"players", "phase", "round", "commitment", "hands", "outcome"}
    assert members(GameState) <= fields_of(game_id)
    if game_id in TRICK_GAMES:
        assert members(TrickState) - members(GameState) == {"leader", "trick"}
        assert members(TrickState) <= fields_of(game_id)
    if game_id in PASSING_GAMES:
        assert members(PassingState) <= fields_of(game_id)


@pytest.mark.parametrize("game_id", TRICK_GAMES)
def test_a_card_is_played_with_the_one_shared_command(game_id):
    assert GAME_TYPES[game_id].commands["play_card"] is PlayCard


@pytest.mark.parametrize("game_id", GAMES)
def test_the_builder_fills_in_what_every_game_does_alike(game_id):
    game = GAME_TYPES[game_id]
    assert game.bot_levels[0] == "random" and game.bots["random"] is random_bot
    with pytest.raises(InvalidSetup, match=game.name):
        game.new_game(game.max_players + 1, {})
    state = game.new_game(game.min_players, {})  # the options' defaults filled in
    assert state.phase == "dealing" and not game.is_terminal(state)
    sizes = range(game.min_players, game.max_players + 1)
    decks = [game.cards_to_deal(game.new_game(n, {})) for n in sizes]
    assert set(game.cards) == {card for deck in decks if deck for card in deck}
    assert set(game.suits) == {card.suit for card in game.cards}


@dataclass(frozen=True, slots=True)
class Shouted(Event):
    """An event no game knows."""


@pytest.mark.parametrize("game_id", GAMES)
def test_evolve_fails_on_an_event_the_game_does_not_know(game_id):
    game = GAME_TYPES[game_id]
    state = game.new_game(game.min_players, {})
    with pytest.raises(UnknownEvent, match="Shouted"):
        game.evolve(state, Shouted())


@pytest.mark.parametrize("game_id", ["ouroboros_trick", "st_patrick"])
def test_an_event_the_game_declares_ignored_changes_nothing(game_id):
    game = GAME_TYPES[game_id]
    state = game.new_game(game.min_players, {})
    assert game.evolve(state, DeckSealed(1, (Card("red", 1),), "salt")) is state


def test_a_game_whose_evolve_misses_one_of_its_events_is_refused_at_registration():
    parts = {
        "id": "forgetful",
        "name": "Forgetful",
        "table_sizes": (3,),
        "options": {},
        "state_type": TRICK_AND_SNIPERS.state_type,
        "new_state": TRICK_AND_SNIPERS.new_game,
        "deck_for": lambda players: (),
        "commands": {},
        "events": (Shouted,),
        "choices": {},
        "views": SimpleNamespace(view=TRICK_AND_SNIPERS.view, legal_actions=lambda s, seat: []),
        "to_act": TRICK_AND_SNIPERS.to_act,
        "bots": {},
    }
    forgetful = SimpleNamespace(decide=TRICK_AND_SNIPERS.decide, evolve=evolver({}))
    with pytest.raises(TypeError, match="Shouted"):
        build_game(**parts, rules=forgetful)
    mindful = SimpleNamespace(decide=forgetful.decide, evolve=evolver({}, ignored=(Shouted,)))
    assert build_game(**parts, rules=mindful).id == "forgetful"
