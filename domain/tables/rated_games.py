"""What a rated game's end means for ratings: who was rated at each seat and each seat's place.

Read from the table's own events alone (TableCreated, SeatJoined, SeatLeft, DealCommitted,
GameEnded), so the ratings are a projection of the log: a rater is the player who took a
human seat, or a bot level's fixed identity. A human who leaves after the deal stays the
seat's rater (a bot plays on, but the place is the leaver's, last: G7); one who leaves before
it opens the seat again, for whoever joins next.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from domain.kit.decider import Event
from domain.kit.game_type import GameType
from domain.kit.outcome import GameEnded
from domain.kit.ranking import Ranks, leavers_last
from domain.shared.dealing import DealCommitted
from domain.tables.presence import SeatLeft
from domain.tables.rated_tables import BOT_RATERS, is_rated
from domain.tables.table import BOT, HUMAN, SeatInfo, SeatJoined, TableCreated

RATING_EVENTS = ("TableCreated", "SeatJoined", "SeatLeft", "DealCommitted", "GameEnded")
"""The event types the fold reads; any others are passed over."""


@dataclass(frozen=True, slots=True)
class RatedResult:
    game_type: str
    raters: tuple[str, ...]  # each seat's rater (a player id)
    ranks: Ranks  # each seat's place, 1 the best


@dataclass(frozen=True, slots=True)
class _Seating:
    rated: bool
    raters: tuple[str | None, ...]
    dealt: bool = False
    left: frozenset[int] = frozenset()
    ended: GameEnded | None = None


def rated_result(game_type: GameType, events: Iterable[Event]) -> RatedResult | None:
    """The result to rate, once a rated table's game has ended; None for any other table."""
    seating: _Seating | None = None
    for event in events:
        if isinstance(event, TableCreated):
            seating = _Seating(is_rated(event.options), tuple(map(_rater, event.seats)))
        elif seating is not None:
            seating = _evolve(seating, event)
    if seating is None or not seating.rated or seating.ended is None:
        return None
    if any(rater is None for rater in seating.raters):
        return None  # cannot happen at a rated table: it deals only with every seat taken
    players = len(seating.raters)
    ranks = leavers_last(game_type.ranking(seating.ended, players), seating.left)
    raters = tuple(rater for rater in seating.raters if rater is not None)
    return RatedResult(game_type.id, raters, ranks)


def _rater(seat: SeatInfo) -> str | None:
    if seat.kind == HUMAN:
        return seat.player
    if seat.kind == BOT and seat.level is not None:
        return BOT_RATERS.get(seat.level)
    return None  # open


def _evolve(seating: _Seating, event: Event) -> _Seating:
    if isinstance(event, SeatJoined):
        return replace(seating, raters=_with(seating.raters, event.seat, event.player))
    if isinstance(event, SeatLeft) and not seating.dealt:
        return replace(seating, raters=_with(seating.raters, event.seat, None))
    if isinstance(event, SeatLeft):
        return replace(seating, left=seating.left | {event.seat})
    if isinstance(event, DealCommitted):
        return replace(seating, dealt=True)
    if isinstance(event, GameEnded):
        return replace(seating, ended=event)
    return seating


def _with(raters: tuple[str | None, ...], seat: int, rater: str | None) -> tuple[str | None, ...]:
    return tuple(rater if index == seat else old for index, old in enumerate(raters))
