"""Ouroboros Trick (rulings O1-O6): the game module the service registers as `GAME`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.cards import Card
from domain.game_type import GameType
from domain.games.ouroboros_trick import view as views  # keeps the submodule name free
from domain.games.ouroboros_trick.bots import basic_bot
from domain.games.ouroboros_trick.events import EVENT_TYPES, Discard, PlayCard
from domain.games.ouroboros_trick.rules import decide, evolve
from domain.games.ouroboros_trick.state import (
    TOP_RANK,
    State,
    deck_for,
    initial_state,
    is_terminal,
    to_act,
)
from domain.options import check_first_leader, check_players
from domain.templates import random_bot

MIN_PLAYERS = min(TOP_RANK)
MAX_PLAYERS = max(TOP_RANK)


def check_options(players: int, options: Mapping[str, Any]) -> None:
    check_players("Ouroboros Trick", players, MIN_PLAYERS, MAX_PLAYERS)
    check_first_leader(players, options)


def new_game(players: int, options: Mapping[str, Any]) -> State:
    check_options(players, options)
    return initial_state(players, options.get("first_leader"))


def cards_to_deal(state: State) -> tuple[Card, ...] | None:
    return deck_for(state.players) if state.phase == "dealing" else None


GAME = GameType(
    id="ouroboros_trick",
    name="Ouroboros Trick",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options={"first_leader": None},
    commands={"play_card": PlayCard, "discard": Discard},
    events={cls.__name__: cls for cls in EVENT_TYPES},
    check_options=check_options,
    new_game=new_game,
    cards_to_deal=cards_to_deal,
    decide=decide,
    evolve=evolve,
    is_terminal=is_terminal,
    to_act=to_act,
    legal_actions=views.legal_actions,
    view=views.view,
    bots={"random": random_bot, "basic": basic_bot},
    state_type=State,
    choices={"CardPlayed": "play_card", "CardsDiscarded": "discard"},  # forced ones: derived
)

__all__ = ["GAME"]
