"""The next decision of a log being re-decided: which command its records stand for, and what the
domain decides on it. Any trouble is a `Problem` naming the version it lies at."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from domain.kit.codec import from_json, type_hints
from domain.kit.decider import Automatic, Command, Deal, DomainError, Event
from domain.kit.origins import event_origin
from domain.shared.dealing import DeckSealed
from domain.tables import table as tables
from domain.tables.fair_deals import seeded_deal
from domain.tables.presence import LeaveSeat, SeatLeft, TimeOut, TurnTimedOut

Record = dict[str, Any]
T = TypeVar("T")
SALT = re.compile(r"[0-9a-f]{32}")
# What forged or malformed data makes the codec or the rules raise (besides a DomainError).
UNREADABLE = (LookupError, TypeError, ValueError, AttributeError)


class Problem(Exception):
    def __init__(self, version: int, message: str) -> None:
        super().__init__(f"v{version}: {message}")
        self.version = version
        self.message = f"v{version}: {message}"


KEYS = ("version", "type", "seat", "visible_to", "data")


def readable_prefix(records: Sequence[Record]) -> int:
    """How many records have the keys of an event record, each of them from the first: every
    other reading of them is then checked where it is made (the codec, the rules)."""
    for index, record in enumerate(records):
        if not (
            isinstance(record, dict)
            and all(key in record for key in KEYS)
            and type(record["version"]) is int
            and isinstance(record["type"], str)
        ):
            return index
    return len(records)


def version_of(record: Record) -> int:
    version: int = record["version"]  # an int in every record `readable_prefix` let through
    return version


def read(record: Record, reader: Callable[[dict[str, Any]], T]) -> T:
    """`reader` applied to the record's data; data the domain cannot read is a Problem."""
    try:
        return reader(record["data"])
    except UNREADABLE as error:
        raise Problem(version_of(record), f"{record['type']} cannot be read: {error!r}") from None


def next_command(
    table: tables.Table, records: Sequence[Record], i: int, game_id: str | None = None
) -> Command:
    """What the game waits for decides how records[i:] are read: a deal, automatic work, or a
    choice. A seat may leave, or be timed out, whatever the game waits for."""
    if records[i]["type"] in SEAT_EVENTS:
        return _seat_command(table, records, i)
    if tables.pending_deal(table) is not None and table.seeds is not None:
        return _seeded_deal(table, records[i], game_id)
    if tables.pending_deal(table) is not None:
        return _deal(table, records, i)
    if kind := table.game_type.automatic(table.game):
        return Automatic(kind)
    return _choice(table, records[i])


def _deal(table: tables.Table, records: Sequence[Record], i: int) -> Deal:
    """The shuffle and the random first leader came from outside the domain: they are taken
    from the log (DeckSealed, DealCommitted), and the domain recomputes everything else."""
    head = records[i]
    if head["type"] != "DealCommitted":
        raise Problem(version_of(head), f"the log has {head['type']}, a deal is due")
    sealed = _sealed_after(records, i)
    if sealed is None:
        raise Problem(version_of(head), "the deal's DeckSealed is not in the log")
    deck, salt = read(sealed, lambda data: (from_json(DeckSealed, data).deck, data["salt"]))
    if not isinstance(salt, str) or SALT.fullmatch(salt) is None:
        # A shorter salt would let anyone test guesses of the deck against the commitment.
        raise Problem(version_of(head), "the deal's salt is not 32 lowercase hex digits")
    leader = read(head, lambda data: data.get("first_leader"))
    fixed = tables.next_fixed_deck(table)  # the deal must be it: a different one won't match
    return Deal(deck if fixed is None else fixed, salt, 0 if leader is None else leader)


def _seeded_deal(table: tables.Table, record: Record, game_id: str | None) -> Deal:
    """A seeded table's deal comes from its seeds alone: nothing of it is taken from the log,
    so a deal that is not the derived one differs at its first event."""
    if game_id is None:
        raise Problem(version_of(record), "a seeded deal is derived from the game id: none given")
    try:
        return seeded_deal(table, game_id)
    except UNREADABLE as error:  # seeds the rules took but cannot derive from
        raise Problem(version_of(record), f"the deal cannot be derived: {error!r}") from None


def _sealed_after(records: Sequence[Record], i: int) -> Record | None:
    """The DeckSealed of the deal starting at records[i], if any before the next deal."""
    for record in records[i + 1 :]:
        if record["type"] == "DeckSealed":
            return record
        if record["type"] == "DealCommitted":
            return None
    return None


SEAT_EVENTS = ("SeatJoined", "SeatLeft", "TurnTimedOut")


def _seat_command(table: tables.Table, records: Sequence[Record], i: int) -> Command:
    record = records[i]
    if record["type"] == "SeatJoined":
        joined = read(record, lambda data: from_json(tables.SeatJoined, data))
        return tables.JoinSeat(joined.seat, joined.name, joined.client_seed)
    if record["type"] == "SeatLeft":
        return LeaveSeat(read(record, lambda data: from_json(SeatLeft, data)).seat)
    return _time_out(table, records, record)


def _time_out(table: tables.Table, records: Sequence[Record], record: Record) -> TimeOut:
    """The timeout as the service ordered it, its times read from the log: the deadline is the
    recorded moment the seat has been waited for since, plus the table's turn_seconds."""
    seat = read(record, lambda data: from_json(TurnTimedOut, data)).seat
    since = dict(table.waiting).get(seat, 0)
    seconds = table.options.get("turn_seconds") or 0
    started = records[since - 1]["recorded_at"] if 0 < since <= len(records) else None
    try:
        now, began = _moment(record["recorded_at"]), _moment(started)
    except (TypeError, ValueError):
        raise Problem(version_of(record), "its moments cannot be read") from None
    return TimeOut(seat, since, now, began + seconds)


def _moment(spelled: object) -> float:
    if not isinstance(spelled, str):
        raise TypeError("not a moment")
    return datetime.fromisoformat(spelled.replace("Z", "+00:00")).timestamp()


def _choice(table: tables.Table, record: Record) -> Command:
    name, game_type = record["type"], table.game_type
    action = game_type.choices.get(name)
    if action is None:
        origin = event_origin(game_type, name)
        what = "a deal" if origin == "deal" else "not a player's choice"
        raise Problem(version_of(record), f"{name} is {what}; {_waiting(table)}")
    command_class = game_type.commands[action]
    hints = type_hints(command_class)
    names = [field.name for field in dataclasses.fields(command_class)]
    return read(
        record, lambda data: command_class(**{n: from_json(hints[n], data[n]) for n in names})
    )


def _waiting(table: tables.Table) -> str:
    if not table.is_full:
        return "the table waits for its open seats to be taken"
    seats = table.game_type.to_act(table.game)
    if not seats:
        return "nobody is to act"
    plural = "seat" if len(seats) == 1 else "seats"
    return f"the game waits for {plural} {', '.join(map(str, seats))} to act"


def decided(table: tables.Table, command: Command, version: int) -> list[Event]:
    """The events the rules give; a refusal is a Problem at the decision's first version."""
    try:
        return tables.decide(table, command)
    except DomainError as error:
        said = f"{describe(table, command)} is against the rules: {error.message}"
        raise Problem(version, said) from None
    except UNREADABLE as error:  # values of the wrong type, e.g. a forged deck of numbers
        raise Problem(version, f"{describe(table, command)} cannot be decided: {error!r}") from None


def describe(table: tables.Table, command: Command) -> str:
    """E.g. "seat 2's play_card (red 9)", "the deal", "the automatic scoring"."""
    if isinstance(command, Deal):
        return "the deal"
    if isinstance(command, Automatic):
        return f"the automatic {command.kind}"
    if isinstance(command, tables.JoinSeat):
        return f"joining seat {command.seat} as {command.name!r}"
    if isinstance(command, LeaveSeat):
        return f"seat {command.seat} leaving"
    if isinstance(command, TimeOut):
        return f"timing out seat {command.seat}"
    action = next(a for a, c in table.game_type.commands.items() if c is type(command))
    fields = [f.name for f in dataclasses.fields(command) if f.name != "seat"]
    shown = "; ".join(_shown(getattr(command, name)) for name in fields)
    seat = getattr(command, "seat", None)
    return f"seat {seat}'s {action}" + (f" ({shown})" if shown else "")


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return str(value)
