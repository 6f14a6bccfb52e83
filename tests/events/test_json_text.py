"""events/json_text.py: the JSON of answers, stream frames and jsonb is json's, only faster."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from events import json_text

VIEW = {
    "id": "0b0e5f4e-8a53-4a5b-9c3e-2f1f7f1f2a10",
    "seats": [{"seat": 0, "name": "Zoë ⚘ \u2028", "hand": [{"suit": "red", "rank": 7}]}],
    "scores": {1: 12, 0: -3},
    "ratio": 0.1,
    "done": None,
    "tricks": [],
}


def compact(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def test_a_view_is_written_byte_for_byte_as_compact_json_writes_it():
    assert json_text.dumps(VIEW) == compact(VIEW)
    assert json_text.loads(json_text.dumps(VIEW)) == json.loads(compact(VIEW))


def test_what_orjson_refuses_is_still_written_as_json_writes_it():
    huge = {"n": 2**70}
    lone = {"name": "a\udfffb"}
    assert json.loads(json_text.dumps(huge)) == huge
    assert json_text.dumps(lone) == b'{"name":"a\\udfffb"}'  # an escape: still valid UTF-8
    assert json_text.loads(b'{"n": 1180591620717411303424}') == huge


def test_with_a_default_dates_go_to_it_as_json_would_send_them():
    moment = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    written = json_text.dumps({"at": moment}, default=lambda value: f"when {value.year}")
    assert written == b'{"at":"when 2026"}'
