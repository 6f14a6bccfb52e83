"""docs/players.md's receiver example works as written: it accepts a delivery signed as the
workers sign one, refuses a tampered one, and acts once on a delivery sent twice."""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

from events.webhooks.signing import message_id, new_secret, signed_headers

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "players.md"


def receiver_example() -> str:
    section = GUIDE.read_text(encoding="utf-8").split("## Webhooks", 1)[1]
    section = section.split("### A receiver that verifies signatures", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "no receiver example"
    return match.group(1)


def test_the_guides_receiver_verifies_signatures_and_dedupes_by_webhook_id():
    secret = new_secret()
    code = receiver_example().replace('"whsec_..."', repr(secret))
    woken: list[str] = []
    namespace: dict = {"__name__": "receiver_example"}
    exec(compile(code, str(GUIDE), "exec"), namespace)
    namespace["wake_the_app"] = woken.append  # what the guide leaves to the reader
    client = namespace["app"].test_client()
    game = str(uuid.uuid4())
    notice = {"id": 3, "kind": "your_turn", "game_id": game, "version": 9, "seat": 1,
              "at": "2026-12-03T16:12:48.113000Z"}  # fmt: skip
    body = json.dumps(notice).encode()
    headers = signed_headers(secret, message_id(uuid.uuid4()), datetime.now(UTC), body)
    assert client.post("/cardroom", data=body, headers=headers).status_code == 204
    assert client.post("/cardroom", data=body, headers=headers).status_code == 204
    tampered = body.replace(b'"seat": 1', b'"seat": 2')
    assert client.post("/cardroom", data=tampered, headers=headers).status_code == 401
    assert woken == [game]
