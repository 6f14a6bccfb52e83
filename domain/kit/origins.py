"""Where each event of a game's log comes from, for an auditor re-deciding the log.

setup    the table's creation (TableCreated, FixedDecksChosen, ServerSeedSealed)
choice   a seat's action: SeatJoined, SeatLeft, or the first event of a game command
         (`GameType.choices`)
timeout  the service's clock: a seat's turn ran out (TurnTimedOut); checked against the times
         the log records, then the rules give what follows
deal     a deal: derived from the table's seeds (G6), or, on a table from before seeds, made
         from a deck shuffled outside the domain (G2)
derived  everything else: the rules give it from what came before
"""

from __future__ import annotations

from typing import Literal

from domain.kit.game_type import GameType

Origin = Literal["setup", "choice", "timeout", "deal", "derived"]

SETUP_EVENTS = frozenset({"TableCreated", "FixedDecksChosen", "ServerSeedSealed"})
TABLE_CHOICES = frozenset({"SeatJoined", "SeatLeft"})  # SeatLeft on a timeout: derived
DEAL_EVENTS = frozenset({"DealCommitted", "HandDealt", "DeckSealed"})  # domain/shared/dealing.py


def event_origin(game_type: GameType, event_name: str) -> Origin:
    """By name only: a choice event can still be derived by a given instance (St Patrick's
    PassCountSet with no seat, a SeatLeft for timeouts), which re-deciding it reports."""
    if event_name in SETUP_EVENTS:
        return "setup"
    if event_name in TABLE_CHOICES or event_name in game_type.choices:
        return "choice"
    if event_name == "TurnTimedOut":
        return "timeout"
    if event_name in DEAL_EVENTS:
        return "deal"
    return "derived"
