"""Saint Poker (rulings P1-P6): the game module the service registers as `GAME`.

Round scoring is automatic work: once every seat has revealed, `automatic` asks for "scoring"
and a worker (or a simulation) decides `Automatic("scoring")`.
"""

from __future__ import annotations

from domain.games.saint_poker import rules, scoring
from domain.games.saint_poker import view as views  # keeps the submodule name free
from domain.games.saint_poker.bots import basic_bot
from domain.games.saint_poker.events import EVENT_TYPES, CommitRiverCard, PickUp, RevealCards
from domain.games.saint_poker.state import (
    FUTURE_RIVER_SIZES,
    State,
    automatic,
    deck_for,
    initial_state,
    to_act,
)
from domain.games.saint_poker.strong import strong_bot
from domain.games.saint_poker.words import WORDS
from domain.kit.build import build_game
from domain.kit.game_type import ActionAbout

GAME = build_game(
    id="saint_poker",
    name="Saint Poker",
    words=WORDS,  # what a client says of it
    package=__name__,  # its guides: guide.en.md, guide.fr.md beside this file
    table_sizes=FUTURE_RIVER_SIZES,
    options={},
    state_type=State,
    new_state=lambda players, options: initial_state(players),
    deck_for=deck_for,
    commands={"commit_river_card": CommitRiverCard, "reveal_cards": RevealCards, "pick_up": PickUp},
    actions_about={
        "commit_river_card": ActionAbout(
            "the card this seat adds to the river (hidden until every seat has committed)."
        ),
        "reveal_cards": ActionAbout(
            "the 2 cards this seat reveals (hidden until every seat has revealed).",
            {"cards": (2, 2)},
        ),
        "pick_up": ActionAbout("one card from the river or any revealed cards, at the pickup."),
    },
    events=EVENT_TYPES,
    choices={
        "RiverCardCommitted": "commit_river_card",
        "RevealChosen": "reveal_cards",
        "CardPickedUp": "pick_up",
    },
    rules=rules,
    views=views,
    revealed_at_end=views.revealed_at_end,
    to_act=to_act,
    bots={"basic": basic_bot, "strong": strong_bot},
    automatic=automatic,
    ranking=scoring.ranking,
    figures=(("points", "points"), ("hand_count", "hand")),
    chart=("points", "round"),
    face_ranks=(11, 12, 13, 14),
)

__all__ = ["GAME"]
