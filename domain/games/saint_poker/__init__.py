"""Saint Poker (rulings P1-P6): the game module the service registers as `GAME`.

Round scoring is automatic work: once every seat has revealed, `automatic` asks for "scoring"
and a worker (or a simulation) decides `Automatic("scoring")`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.cards import Card
from domain.game_type import GameType
from domain.games.saint_poker import view as views  # keeps the submodule name free
from domain.games.saint_poker.bots import basic_bot
from domain.games.saint_poker.events import EVENT_TYPES, CommitRiverCard, PickUp, RevealCards
from domain.games.saint_poker.rules import SCORING, decide, evolve
from domain.games.saint_poker.state import (
    DECK,
    FUTURE_RIVER_SIZES,
    State,
    initial_state,
    is_terminal,
    to_act,
)
from domain.options import check_players
from domain.templates import random_bot

MIN_PLAYERS = min(FUTURE_RIVER_SIZES)
MAX_PLAYERS = max(FUTURE_RIVER_SIZES)


def check_options(players: int, options: Mapping[str, Any]) -> None:
    check_players("Saint Poker", players, MIN_PLAYERS, MAX_PLAYERS)


def new_game(players: int, options: Mapping[str, Any]) -> State:
    check_options(players, options)
    return initial_state(players)


def cards_to_deal(state: State) -> tuple[Card, ...] | None:
    return DECK if state.phase == "dealing" else None


def automatic(state: State) -> str | None:
    return SCORING if state.phase == SCORING else None


GAME = GameType(
    id="saint_poker",
    name="Saint Poker",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options={},
    commands={"commit_river_card": CommitRiverCard, "reveal_cards": RevealCards, "pick_up": PickUp},
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
    automatic=automatic,
    state_type=State,
    choices={
        "RiverCardCommitted": "commit_river_card",
        "RevealChosen": "reveal_cards",
        "CardPickedUp": "pick_up",
    },
)

__all__ = ["GAME"]
