"""A stream process's rooms (api/stream_rooms.py) hand each stream's bytes to its socket without
waiting for it: one client that stops reading never holds up the others of its game. Pure, on
gevent's own sockets (the stream process's), with no server."""

from __future__ import annotations

import time
import uuid
from types import SimpleNamespace

import gevent
import pytest
from gevent import socket as gsocket

from api.games.live import StreamSpec
from api.stream_rooms import BEAT_SLACK, PENDING_LIMIT, Member, Room

PIECE = b"x" * 65536
SPEC = StreamSpec(uuid.uuid4(), viewer=None, after=0, heartbeat=15.0, max_seconds=0)


def member_on_a_socketpair() -> tuple[Member, gsocket.socket]:
    ours, theirs = gsocket.socketpair()
    return Member(SPEC, ours, http10=True, now=time.monotonic()), theirs


def read_forever(sock: gsocket.socket, into: bytearray) -> None:
    while data := sock.recv(1 << 20):
        into.extend(data)


def test_a_client_that_stops_reading_never_holds_up_the_others_and_is_let_go():
    # Given two streams, one of whose clients never reads
    stuck, _stuck_peer = member_on_a_socketpair()
    reading, reader = member_on_a_socketpair()
    serving = [gevent.spawn(stuck.serve), gevent.spawn(reading.serve)]
    received = bytearray()
    reader_loop = gevent.spawn(read_forever, reader, received)
    # When more than PENDING_LIMIT is offered to both
    pieces = PENDING_LIMIT // len(PIECE) + 64
    started = time.monotonic()
    for _ in range(pieces):
        stuck.offer(PIECE)
        reading.offer(PIECE)
        gevent.sleep(0.001)  # the reader reads meanwhile, as clients do between events
    offered_in = time.monotonic() - started
    # Then offering never waited for the stuck client, which was let go
    assert offered_in < 2.0
    assert stuck.ended
    # And the reading client got every byte, in order, and its stream goes on
    deadline = time.monotonic() + 5
    while len(received) < pieces * len(PIECE) and time.monotonic() < deadline:
        gevent.sleep(0.01)
    assert bytes(received) == PIECE * pieces
    assert not reading.ended
    reading.end()
    serving[1].join(timeout=5)
    assert serving[1].dead
    gevent.killall([serving[0], reader_loop])  # the stuck one still waits on its socket


class QuietNotifier:
    def poll_timeout(self, heartbeat: float) -> float:
        return heartbeat


def test_a_room_beats_the_streams_nearly_due_along_with_the_one_due():
    # Given a room whose streams last had a comment 15, 12 and 5 s ago (heartbeat 15 s)
    assert 15.0 * (1 - BEAT_SLACK) <= 12.0  # so the second is within the slack
    rooms = SimpleNamespace(feeds=SimpleNamespace(of=lambda game_id: None), heartbeat=15.0)
    room = Room(SPEC.game_id, rooms)  # type: ignore[arg-type]
    now = time.monotonic()
    pairs = [member_on_a_socketpair() for _ in range(3)]
    for (member, _), ago in zip(pairs, (15.0, 12.0, 5.0), strict=True):
        member.last_comment = now - ago
        room.members.append(member)
    # When the room beats
    wait = room._beat_and_next_wake(QuietNotifier(), now)  # type: ignore[arg-type]
    # Then the one due and the one due within the slack got a comment, the third did not
    for _, theirs in pairs:
        theirs.settimeout(0.2)
    assert [theirs.recv(1024) for _, theirs in pairs[:2]] == [b": keep-alive\n\n"] * 2
    with pytest.raises(TimeoutError):
        pairs[2][1].recv(1024)
    assert [m.last_comment for m, _ in pairs[:2]] == [now, now]
    # And the room wakes next when the third is due
    assert wait == pytest.approx(10.0)
