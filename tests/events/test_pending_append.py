"""What an append gives back (events/pending_append.py): its events as stored are read only once
its unit of work has sent them, and never after the unit rolled back. The in-memory unit keeps
the same contract as Postgres, which may send an append with its COMMIT. (The Postgres unit's
own cases are in test_unit_of_work.py.)"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime

import pytest

from domain.games import get_game_type
from domain.kit.decider import Event
from domain.tables import table as tables
from events.audit.chain import CURRENT_FORMAT, GENESIS
from events.memory import MemoryStore
from events.pending_append import AppendNotSaved, PendingAppend
from events.records import NewEvent, StoredEvent, StreamHead, chained_events

TNS = get_game_type("trick_and_snipers")
HUMAN = tables.SeatInfo(tables.HUMAN, "ada")


def two_events() -> list[StoredEvent]:
    head = StreamHead(0, GENESIS, CURRENT_FORMAT)
    new = [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})]
    return chained_events(uuid.uuid4(), head, new, datetime.now(UTC))


def positioned(events: list[StoredEvent], first: int) -> list[StoredEvent]:
    return [dataclasses.replace(e, global_position=first + i) for i, e in enumerate(events)]


def test_an_append_not_sent_yet_refuses_to_give_its_stored_events():
    appended = PendingAppend(two_events())
    assert not appended.sent
    with pytest.raises(AppendNotSaved, match="not sent yet"):
        appended.stored  # noqa: B018


def test_what_is_known_before_sending_is_read_from_its_chained_events():
    events = two_events()
    appended = PendingAppend(events)
    assert appended.version == 2
    assert [e.recorded_at for e in appended.chained] == [e.recorded_at for e in events]


def test_once_sent_its_stored_events_carry_their_global_positions():
    events = two_events()
    appended = PendingAppend(events)
    appended.mark_sent(positioned(events, 41))
    assert appended.sent and [e.global_position for e in appended.stored] == [41, 42]


def test_a_rolled_back_append_refuses_to_give_its_events_even_if_it_was_sent():
    events = two_events()
    unsent, sent = PendingAppend(events), PendingAppend(events)
    sent.mark_sent(positioned(events, 7))
    for appended in (unsent, sent):
        appended.drop()
        assert not appended.sent
        with pytest.raises(AppendNotSaved, match="rolled back"):
            appended.stored  # noqa: B018


def test_an_append_is_sent_once_and_only_as_the_events_it_chained():
    events = two_events()
    appended = PendingAppend(events)
    with pytest.raises(ValueError, match="not the ones"):
        appended.mark_sent(events[:1])
    appended.mark_sent(events)
    with pytest.raises(RuntimeError, match="sent once"):
        appended.mark_sent(events)


def a_new_stream(store: MemoryStore) -> tuple[uuid.UUID, StreamHead, list[Event]]:
    """A game's empty stream, and the events that create its table (to append to it)."""
    game_id = uuid.uuid4()
    with store.unit_of_work() as uow:
        head = uow.create_stream(game_id, TNS.id)
    return game_id, head, tables.decide_create(TNS, tables.CreateTable((HUMAN,) * 3, {}))[:1]


def the_table(events: list[Event]) -> tables.Table:
    created = events[0]
    assert isinstance(created, tables.TableCreated)
    return tables.create(TNS, created)


def test_the_memory_unit_gives_the_stored_events_only_once_it_has_ended():
    store = MemoryStore()
    game_id, head, events = a_new_stream(store)
    with store.unit_of_work() as uow:
        appended = uow.append(game_id, head, events, the_table(events))
        with pytest.raises(AppendNotSaved, match="not sent yet"):
            appended.stored  # noqa: B018
    assert [e.version for e in appended.stored] == [1]
    assert store.state.events[game_id] == appended.stored


def test_the_memory_unit_drops_an_append_when_it_rolls_back():
    store = MemoryStore()
    game_id, head, events = a_new_stream(store)
    with pytest.raises(RuntimeError), store.unit_of_work() as uow:
        appended = uow.append(game_id, head, events, the_table(events))
        raise RuntimeError("the unit fails after its append")
    with pytest.raises(AppendNotSaved, match="rolled back"):
        appended.stored  # noqa: B018
    assert store.state.events[game_id] == []
