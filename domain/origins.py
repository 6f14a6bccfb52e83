"""Where each event of a game's log comes from, for an auditor re-deciding the log.

setup    the table's creation (TableCreated, FixedDecksChosen)
choice   a seat's action: SeatJoined, or the first event of a game command (`GameType.choices`)
deal     a deal made from a deck shuffled outside the domain (G2)
derived  everything else: the rules give it from what came before
"""

from __future__ import annotations

from typing import Literal

from domain.game_type import GameType

Origin = Literal["setup", "choice", "deal", "derived"]

SETUP_EVENTS = frozenset({"TableCreated", "FixedDecksChosen"})
DEAL_EVENTS = frozenset({"DealCommitted", "HandDealt", "DeckSealed"})  # domain/dealing.py


def event_origin(game_type: GameType, event_name: str) -> Origin:
    """By name only: a choice event can still be derived by a given instance (St Patrick's
    PassCountSet with no seat), which re-deciding it reports."""
    if event_name in SETUP_EVENTS:
        return "setup"
    if event_name == "SeatJoined" or event_name in game_type.choices:
        return "choice"
    if event_name in DEAL_EVENTS:
        return "deal"
    return "derived"
