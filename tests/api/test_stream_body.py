"""The body of an event stream (api/streams/live.py) as the stream server writes it: pure, with a
feed and a notifier that stand in for the store and Postgres's NOTIFY."""

from __future__ import annotations

import uuid
from contextlib import nullcontext

from api.streams.feeds import Reading
from api.streams.live import StreamSpec, event_stream

GAME = uuid.uuid4()


class PendingFeed:
    """Three events waiting after version 4, then the game is over."""

    def read(self, after: int, viewer: int | None, generation: object) -> Reading:
        events = [(v, f"id: {v}\ndata: {{}}\n\n") for v in range(5, 8) if v > after]
        return Reading(events, None)


class QuietNotifier:
    closed = False

    def subscribe(self, game_id: uuid.UUID):
        return nullcontext()

    def generation(self, game_id: uuid.UUID) -> int:
        return 1


def test_events_waiting_together_are_written_in_one_piece_in_order():
    spec = StreamSpec(GAME, viewer=None, after=4, heartbeat=10.0, max_seconds=0)
    pieces = list(event_stream(spec, PendingFeed(), QuietNotifier()))  # type: ignore[arg-type]
    assert len(pieces) == 2  # the stream's preamble, then the three events
    assert pieces[1] == "".join(f"id: {v}\ndata: {{}}\n\n" for v in (5, 6, 7))
