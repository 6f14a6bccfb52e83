"""Who is still at the table: a human may leave (a bot plays the seat from then on), and with a
turn timer a seat that does not act in time is timed out, its move made for it; after
`max_timeouts` timeouts in a row it is treated as having left.

The domain keeps no clock: the table counts its events (`version`) and remembers since which
version each seat has been waited for; the service turns that version's `recorded_at` into a
deadline and gives "now" in the `TimeOut` command.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.kit.decider import Command, Event, IllegalAction, InvalidSetup

TABLE_OPTIONS: Mapping[str, Any] = {"turn_seconds": None, "max_timeouts": 3, "rated": False}
"""Options every game type accepts; absent from a table's options unless given. `rated` is
domain/tables/rated_tables.py's."""
TURN_SECONDS = (5, 86_400)
LEFT, TIMED_OUT = "left", "timeouts"


@dataclass(frozen=True, slots=True)
class LeaveSeat(Command):
    seat: int


@dataclass(frozen=True, slots=True)
class TimeOut(Command):
    """The service's order once a seat's deadline has passed: `since` is the version the seat
    has been waited for since, `now` and `deadline` seconds since the epoch."""

    seat: int
    since: int
    now: float
    deadline: float


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """`reason`: "left" (the seat's holder left) or "timeouts" (too many in a row)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    """`count`: the seat's timeouts in a row, this one included."""

    seat: int
    count: int


def check_table_options(options: Mapping[str, Any]) -> None:
    seconds = options.get("turn_seconds")
    low, high = TURN_SECONDS
    if seconds is not None and (type(seconds) is not int or not low <= seconds <= high):
        raise InvalidSetup(f"turn_seconds must be an integer from {low} to {high}")
    most = options.get("max_timeouts", TABLE_OPTIONS["max_timeouts"])
    if type(most) is not int or most < 1:
        raise InvalidSetup("max_timeouts must be an integer of at least 1")


def decide_time_out(
    options: Mapping[str, Any],
    waiting: Mapping[int, int],
    timeouts: tuple[int, ...],
    command: TimeOut,
) -> list[Event]:
    if options.get("turn_seconds") is None:
        raise IllegalAction("this table has no turn timer")
    if waiting.get(command.seat) != command.since:
        raise IllegalAction(f"seat {command.seat} is not waited for since {command.since}")
    if command.now < command.deadline:
        raise IllegalAction(f"seat {command.seat}'s turn has not run out yet")
    count = timeouts[command.seat] + 1
    events: list[Event] = [TurnTimedOut(command.seat, count)]
    if count >= options.get("max_timeouts", TABLE_OPTIONS["max_timeouts"]):
        events.append(SeatLeft(command.seat, TIMED_OUT))
    return events


def waiting_after(
    waiting: Mapping[int, int], to_act: Iterable[int], version: int, chose: int | None
) -> tuple[tuple[int, int], ...]:
    """Since which version each seat in `to_act` is waited for, after the event of `version`:
    a seat newly waited for, or one that just made a choice and is waited for again, starts
    a new turn."""
    since = {s: v for s, v in waiting.items() if s != chose}
    return tuple(sorted((s, since.get(s, version)) for s in set(to_act)))


def timeouts_after(
    timeouts: tuple[int, ...], timing_out: int | None, chose: int | None
) -> tuple[tuple[int, ...], int | None]:
    """A seat's own choice ends its run of timeouts, except the move made for it on a timeout."""
    if chose is None:
        return timeouts, timing_out
    if chose == timing_out:
        return timeouts, None
    counts = list(timeouts)
    counts[chose] = 0
    return tuple(counts), timing_out
