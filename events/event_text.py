"""An event as a given viewer may see it, as JSON and as a Server-Sent Events message: what the
API's responses and streams show, and what the stream publisher (workers/stream_publisher.py)
sends to Pushpin, from one function."""

from __future__ import annotations

from typing import Any

from domain.kit.decider import Event
from domain.tables.table import Table
from domain.tables.view import event_data_for
from events import json_text
from events.audit.chain import timestamp
from events.folding import decode
from events.records import StoredEvent


def event_json(
    table: Table, stored: StoredEvent, viewer: int | None, event: Event | None = None
) -> dict[str, Any]:
    """`table` is the game now: once it is finished every event is shown in full."""
    finished = table.status == "finished"
    event = event or decode(table.game_type.id, stored)
    return {
        "version": stored.version,
        "type": stored.type,
        "seat": stored.seat,
        "recorded_at": timestamp(stored.recorded_at),
        "data": event_data_for(event, viewer, finished),
    }


def sse_message(event: dict[str, Any]) -> str:
    data = json_text.dumps(event).decode("utf-8")
    return f"id: {event['version']}\nevent: {event['type']}\ndata: {data}\n\n"


def sse_comment(text: str) -> str:
    return f": {text}\n\n"
