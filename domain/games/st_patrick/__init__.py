"""St Patrick (rulings S1-S10): the game module the service registers as `GAME`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.cards import Card
from domain.decider import InvalidSetup
from domain.game_type import GameType
from domain.games.st_patrick import view as views  # keeps the submodule name free
from domain.games.st_patrick.bots import basic_bot
from domain.games.st_patrick.commands import (
    ChoosePassCount,
    PassCards,
    PassRelics,
    PlayCard,
    TakeRelics,
)
from domain.games.st_patrick.events import EVENT_TYPES
from domain.games.st_patrick.rules import decide, evolve
from domain.games.st_patrick.state import (
    HAND_SIZES,
    State,
    automatic,
    deck,
    initial_state,
    is_terminal,
    to_act,
)
from domain.options import check_players
from domain.templates import random_bot

MIN_PLAYERS = min(HAND_SIZES)
MAX_PLAYERS = max(HAND_SIZES)
OPTIONS = {"first_lead_snake_allowed": True}  # S7: the English book by default


def check_options(players: int, options: Mapping[str, Any]) -> None:
    check_players("St Patrick", players, MIN_PLAYERS, MAX_PLAYERS)
    if not isinstance(options.get("first_lead_snake_allowed", True), bool):
        raise InvalidSetup("first_lead_snake_allowed must be true or false")


def new_game(players: int, options: Mapping[str, Any]) -> State:
    check_options(players, options)
    return initial_state(players, options.get("first_lead_snake_allowed", True))


def cards_to_deal(state: State) -> tuple[Card, ...] | None:
    return deck() if state.phase == "dealing" else None


GAME = GameType(
    id="st_patrick",
    name="St Patrick",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    commands={
        "choose_pass_count": ChoosePassCount,
        "pass_cards": PassCards,
        "take_relics": TakeRelics,
        "pass_relics": PassRelics,
        "play_card": PlayCard,
    },
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
        "PassCountSet": "choose_pass_count",  # a choice only with a seat; seat None: derived (S3)
        "CardsPassed": "pass_cards",
        "RelicsTaken": "take_relics",
        "RelicsDeclined": "pass_relics",
        "CardPlayed": "play_card",
    },
)

__all__ = ["GAME"]
