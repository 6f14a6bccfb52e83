"""What a commit tells the players at a table: a player's inbox stream and webhooks carry these.

Pure: from the table before the commit (None for a table being created), the table after it,
and the events it appended. A notice names its kind, the seat and the seat's player, never a
card: what changed is for the player to read from the game itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.kit.decider import Event
from domain.tables.presence import SeatLeft, TurnTimedOut
from domain.tables.table import HUMAN, OPEN, Table

YOUR_TURN = "your_turn"
GAME_STARTED = "game_started"
GAME_ENDED = "game_ended"
INVITED = "invited"
TIMED_OUT = "timed_out"
SEAT_LOST = "seat_lost"
TABLE_KINDS = (YOUR_TURN, GAME_STARTED, GAME_ENDED, INVITED, TIMED_OUT, SEAT_LOST)
MATCH_FOUND = "match_found"  # the matchmaker seated the player: told with the table's creation


@dataclass(frozen=True, slots=True)
class Notice:
    kind: str
    seat: int
    player: str


def notices_of(before: Table | None, after: Table, events: Sequence[Event]) -> list[Notice]:
    """Every notice the commit gives, in the order things happened: seats lost or timed out,
    then invitations, the start, the end, and whose turn it is now."""
    found = _from_events(before, events)
    if before is None:
        found += _to_players(after, INVITED, kind_of_seat=OPEN)
    if after.started and (before is None or not before.started):
        found += _to_players(after, GAME_STARTED)
    if after.status == "finished" and (before is None or before.status != "finished"):
        found += _to_players(after, GAME_ENDED)
    found += _turns_begun(before, after)
    return found


def matches_found(seats: Sequence[tuple[int, str]]) -> list[Notice]:
    """A `match_found` for each (seat, player) the matchmaker seated at a table it created."""
    return [Notice(MATCH_FOUND, seat, player) for seat, player in seats]


def _from_events(before: Table | None, events: Sequence[Event]) -> list[Notice]:
    """A timeout, or a seat lost (left, or taken from its player after timeouts), told to the
    player who sat there before the commit."""
    if before is None:
        return []
    found = []
    for event in events:
        kind = {TurnTimedOut: TIMED_OUT, SeatLeft: SEAT_LOST}.get(type(event))
        seat = getattr(event, "seat", None)
        if kind is None or seat is None:
            continue
        player = before.seats[seat].player
        if player is not None:
            found.append(Notice(kind, seat, player))
    return found


def _to_players(table: Table, kind: str, kind_of_seat: str = HUMAN) -> list[Notice]:
    return [
        Notice(kind, index, seat.player)
        for index, seat in enumerate(table.seats)
        if seat.kind == kind_of_seat and seat.player is not None
    ]


def _turns_begun(before: Table | None, after: Table) -> list[Notice]:
    """A player's seat the game began to wait for in this commit (it did not wait for it
    before, or the seat moved and is asked again)."""
    since_before = 0 if before is None else before.version
    found = []
    for seat, since in after.waiting:
        info = after.seats[seat]
        if info.kind == HUMAN and info.player is not None and since > since_before:
            found.append(Notice(YOUR_TURN, seat, info.player))
    return found
