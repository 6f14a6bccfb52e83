"""Ouroboros Trick (rulings O1-O6): the game module the service registers as `GAME`."""

from __future__ import annotations

from domain.games.ouroboros_trick import rules
from domain.games.ouroboros_trick import view as views  # keeps the submodule name free
from domain.games.ouroboros_trick.bots import basic_bot
from domain.games.ouroboros_trick.events import EVENT_TYPES, Discard
from domain.games.ouroboros_trick.state import TOP_RANK, State, deck_for, initial_state, to_act
from domain.games.ouroboros_trick.strong import strong_bot
from domain.games.ouroboros_trick.words import WORDS
from domain.kit.build import build_game
from domain.kit.game_type import ActionAbout
from domain.kit.options import check_first_leader, first_leader_schema
from domain.kit.ranking import winners_first
from domain.shared.tricks import PlayCard

GAME = build_game(
    id="ouroboros_trick",
    name="Ouroboros Trick",
    words=WORDS,  # what a client says of it
    package=__name__,  # its guides: guide.en.md, guide.fr.md beside this file
    table_sizes=TOP_RANK,
    options={"first_leader": None},
    check_options=check_first_leader,
    figures=(("hand_count", "hand"), ("pool_count", "pool")),
    chart=("cards_left", "trick"),
    option_schemas=first_leader_schema,
    ranking=winners_first,  # G7, O5: the losers last, every other seat tied
    state_type=State,
    new_state=lambda players, options: initial_state(players, options["first_leader"]),
    deck_for=deck_for,
    commands={"play_card": PlayCard, "discard": Discard},
    actions_about={
        "discard": ActionAbout(
            "the trick winner discards as many cards as the trick's lowest rank (the template"
            " gives the count).",
            {"cards": (1, 15)},
        ),
    },
    events=EVENT_TYPES,
    choices={"CardPlayed": "play_card", "CardsDiscarded": "discard"},  # forced ones: derived
    rules=rules,
    views=views,
    to_act=to_act,
    bots={"basic": basic_bot, "strong": strong_bot},
)

__all__ = ["GAME"]
