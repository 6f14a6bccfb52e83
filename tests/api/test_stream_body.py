"""The body of a stream the API worker serves (api/streams/serving.py): pure, with a source and
a notifier that stand in for the store and Postgres's NOTIFY."""

from __future__ import annotations

import uuid
from contextlib import nullcontext

from api.streams.serving import Batch, served

SUBJECT = uuid.uuid4()


class PendingGame:
    """Three events waiting after version 4, then the game is over."""

    subject, notified_on, credential, game, starts = SUBJECT, "games", None, None, "after"

    def read(self, after: int, generation: object | None) -> Batch:
        versions = [v for v in range(5, 8) if v > after]
        text = "".join(f"id: {v}\ndata: {{}}\n\n" for v in versions)
        return Batch(text, versions[-1] if versions else after, None)


class RevokedAfterOneRead(PendingGame):
    """One event, then its credential is rotated while more events wait."""

    reads = 0

    def read(self, after: int, generation: object | None) -> Batch:
        self.reads += 1
        return Batch(f"id: {after + 1}\n\n", after + 1, True, revoked=self.reads > 1)


class QuietNotifier:
    closed = False

    def subscribe(self, subject: uuid.UUID):
        return nullcontext()

    def generation(self, subject: uuid.UUID) -> int:
        return 1

    def poll_timeout(self, heartbeat: float) -> float:
        return heartbeat


def test_events_waiting_together_are_written_in_one_piece_in_order():
    pieces = list(served(PendingGame(), QuietNotifier(), 4, heartbeat=10.0, max_seconds=0))  # type: ignore[arg-type]
    assert len(pieces) == 2  # the stream's preamble, then the three events
    assert pieces[1] == "".join(f"id: {v}\ndata: {{}}\n\n" for v in (5, 6, 7))


def test_a_revoked_credential_gets_nothing_more_though_more_waits():
    pieces = list(served(RevokedAfterOneRead(), QuietNotifier(), 0, heartbeat=10.0, max_seconds=0))  # type: ignore[arg-type]
    assert pieces[1:] == ["id: 1\n\n"]
