"""St Patrick (rulings S1-S10): the game module the service registers as `GAME`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.st_patrick import rules, scoring
from domain.games.st_patrick import view as views  # keeps the submodule name free
from domain.games.st_patrick.bots import basic_bot
from domain.games.st_patrick.events import (
    EVENT_TYPES,
    ChoosePassCount,
    PassCards,
    PassRelics,
    TakeRelics,
)
from domain.games.st_patrick.state import (
    HAND_SIZES,
    State,
    automatic,
    deck_for,
    initial_state,
    to_act,
)
from domain.games.st_patrick.strong import strong_bot
from domain.games.st_patrick.words import WORDS
from domain.kit.build import build_game
from domain.kit.decider import InvalidSetup
from domain.kit.game_type import ActionAbout
from domain.shared.tricks import PlayCard


def check_options(players: int, options: Mapping[str, Any]) -> None:
    if not isinstance(options.get("first_lead_snake_allowed", True), bool):
        raise InvalidSetup("first_lead_snake_allowed must be true or false")


SNAKE_FIRST_SCHEMA = {
    "description": "Whether the first lead of a round may be a snake (S7): true (the default)"
    " follows the English rulebook; false the French one, where it may not unless the leader"
    " holds only snakes.",
    "type": "boolean",
}

GAME = build_game(
    id="st_patrick",
    name="St Patrick",
    words=WORDS,  # what a client says of it
    package=__name__,  # its guides: guide.en.md, guide.fr.md beside this file
    table_sizes=HAND_SIZES,
    options={"first_lead_snake_allowed": True},  # S7: the English book by default
    check_options=check_options,
    figures=(
        ("life", "life"),
        ("relics", "relic"),
        ("bites", "bite"),
        ("tricks_won", "trick"),
        ("hand_count", "hand"),
    ),
    chart=("life", "round"),
    option_schemas=lambda players: {"first_lead_snake_allowed": SNAKE_FIRST_SCHEMA},
    ranking=scoring.ranking,
    state_type=State,
    new_state=lambda players, options: initial_state(players, options["first_lead_snake_allowed"]),
    deck_for=deck_for,
    commands={
        "choose_pass_count": ChoosePassCount,
        "pass_cards": PassCards,
        "take_relics": TakeRelics,
        "pass_relics": PassRelics,
        "play_card": PlayCard,
    },
    actions_about={
        "choose_pass_count": ActionAbout(
            "after round 1, the single lowest-life player chooses how many cards everyone passes.",
            {"count": (0, 2)},
        ),
        "pass_cards": ActionAbout(
            "the round's count (1 in round 1, else 0-2 as chosen).", {"cards": (1, 2)}
        ),
        "take_relics": ActionAbout(
            "in the relic phase, take `count` relics (1 to the number left in the middle).",
            {"count": (1, 15)},
        ),
        "pass_relics": ActionAbout("in the relic phase, take none this turn."),
    },
    events=EVENT_TYPES,
    choices={
        "PassCountSet": "choose_pass_count",  # a choice only with a seat; seat None: derived (S3)
        "CardsPassed": "pass_cards",
        "RelicsTaken": "take_relics",
        "RelicsDeclined": "pass_relics",
        "CardPlayed": "play_card",
    },
    rules=rules,
    views=views,
    to_act=to_act,
    bots={"basic": basic_bot, "strong": strong_bot},
    automatic=automatic,
)

__all__ = ["GAME"]
