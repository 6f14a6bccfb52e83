"""Trick & Snipers (rulings T1-T6): the game module the service registers as `GAME`."""

from __future__ import annotations

from domain.games.trick_and_snipers import rules, scoring
from domain.games.trick_and_snipers import view as views  # keeps the submodule name free
from domain.games.trick_and_snipers.bots import basic_bot
from domain.games.trick_and_snipers.events import EVENT_TYPES, PassCards
from domain.games.trick_and_snipers.state import (
    HAND_SIZES,
    State,
    deck_for,
    initial_state,
    to_act,
)
from domain.games.trick_and_snipers.strong import strong_bot
from domain.games.trick_and_snipers.words import WORDS
from domain.kit.build import build_game
from domain.kit.game_type import ActionAbout
from domain.kit.options import check_first_leader, first_leader_schema
from domain.shared.tricks import PlayCard

GAME = build_game(
    id="trick_and_snipers",
    name="Trick & Snipers",
    words=WORDS,  # what a client says of it
    package=__name__,  # its guides: guide.en.md, guide.fr.md beside this file
    table_sizes=HAND_SIZES,
    options={"first_leader": None},
    check_options=check_first_leader,
    figures=(
        ("victory_points", "victory-point"),
        ("tricks_won", "tricks-won"),
        ("hand_count", "hand"),
    ),
    chart=("victory_points", "trick"),
    option_schemas=first_leader_schema,
    ranking=scoring.ranking,
    state_type=State,
    new_state=lambda players, options: initial_state(players, options["first_leader"]),
    deck_for=deck_for,
    commands={"pass_cards": PassCards, "play_card": PlayCard},
    actions_about={
        "pass_cards": ActionAbout("4 cards, before the first trick.", {"cards": (4, 4)}),
    },
    events=EVENT_TYPES,
    choices={"CardsPassed": "pass_cards", "CardPlayed": "play_card"},
    rules=rules,
    views=views,
    revealed_at_end=views.revealed_at_end,
    to_act=to_act,
    bots={"basic": basic_bot, "strong": strong_bot},
)

__all__ = ["GAME"]
