"""Log lines of a real gunicorn and a real worker, in both formats: JSON lines that parse, the
request's or job's context on its lines, and no secret (token, ticket, invite, idempotency key)
anywhere, whatever a client put it in (header, query string, body)."""

from __future__ import annotations

import json
import time
import uuid

import pytest
import requests

from tests.api.real_server import gunicorn_serving
from tests.service import app_settings, start_worker, stop_worker

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "open"}]


@pytest.fixture()
def settings(private_database_url, redis_url, tmp_path):
    return app_settings(private_database_url, redis_url, tmp_path)


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_a_flow(base: str) -> tuple[list[str], dict]:
    """Create, join, act, a stream ticket, streams, leave; the secrets it handled, and what the
    act's answer said (its request id, game and version)."""
    key = str(uuid.uuid4())
    body = {"type": "trick_and_snipers", "seats": SEATS, "options": {}}
    created = requests.post(f"{base}/games", json=body, headers={"Idempotency-Key": key})
    assert created.status_code == 201, created.text
    game = created.json()
    gid, (ada, bo) = game["id"], [t["token"] for t in game["tokens"]]
    invite = game["invites"][0]["invite"]
    joined = requests.post(
        f"{base}/games/{gid}/seats/2/join", json={"name": "Cy", "invite": invite}
    ).json()
    cy = joined["token"]
    mine = requests.get(f"{base}/games/{gid}", headers=auth(ada)).json()
    template = mine["you"]["legal_actions"][0]
    action = {"type": template["type"], "cards": template["cards"][: template["count"]]}
    acted = requests.post(
        f"{base}/games/{gid}/actions",
        json=action,
        headers={**auth(ada), "X-Request-Id": "act-1", "Idempotency-Key": str(uuid.uuid4())},
    )
    assert acted.status_code == 201, acted.text
    requests.get(f"{base}/games/{gid}?access_token={bo}")
    requests.get(f"{base}/games/{gid}", headers=auth("not-a-token-zz9"))
    ticket = requests.post(f"{base}/games/{gid}/stream-ticket", headers=auth(cy)).json()["ticket"]
    for query in (f"ticket={ticket}", f"access_token={bo}"):
        with requests.get(f"{base}/games/{gid}/events/stream?{query}", stream=True) as stream:
            assert stream.status_code == 200
            next(stream.iter_content(64))
    left = requests.post(f"{base}/games/{gid}/seats/1/leave", headers=auth(bo))
    assert left.status_code == 201, left.text
    secrets = [key, ada, bo, cy, invite, ticket, "not-a-token-zz9"]
    return secrets, {"request_id": "act-1", "game_id": gid, "version": acted.json()["version"]}


def secrets_in(text: str, secrets: list[str]) -> list[str]:
    return [secret for secret in secrets if secret in text]


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_no_secret_of_a_whole_flow_reaches_the_api_logs(settings, tmp_path, log_format):
    log = tmp_path / "api.log"
    environment = {"LOG_LEVEL": "DEBUG", "LOG_FORMAT": log_format}
    with gunicorn_serving(settings, log=log, **environment) as served:
        secrets, act = play_a_flow(f"http://127.0.0.1:{served.port}")
        time.sleep(0.3)  # the last lines written
    text = log.read_text()
    assert "cardroom.requests" in text  # the app's lines are there, at DEBUG
    assert secrets_in(text, secrets) == []
    if log_format == "text":
        line = next(line for line in text.splitlines() if "request_id=act-1" in line)
        assert f"game_id={act['game_id']}" in line and f"version={act['version']}" in line
        return
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    acted = [line for line in lines if line.get("request_id") == "act-1"]
    assert acted and all(line["game_id"] == act["game_id"] for line in acted)
    assert any(line.get("version") == act["version"] for line in acted)
    assert {"time", "level", "logger", "message"} <= set(acted[0])


def test_a_workers_json_lines_name_the_job_and_game_they_ran_for(settings, tmp_path):
    log = tmp_path / "worker.log"
    worker = start_worker(settings, log=log, LOG_FORMAT="json", LOG_LEVEL="DEBUG")
    try:
        with gunicorn_serving(settings) as served:
            base = f"http://127.0.0.1:{served.port}"
            seats = [{"kind": "bot", "level": "random"}] * 3
            body = {"type": "trick_and_snipers", "seats": seats, "options": {}}
            gid = requests.post(f"{base}/games", json=body).json()["id"]
            deadline = time.monotonic() + 60
            while requests.get(f"{base}/games/{gid}").json()["version"] < 10:
                assert time.monotonic() < deadline, "the bots did not play"
                time.sleep(0.2)
    finally:
        stop_worker(worker)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    of_jobs = [line for line in lines if line.get("job_id", "").startswith(gid)]
    assert of_jobs and all(line["game_id"] == gid for line in of_jobs)
    # One job per bot turn: the first at version 7, once TableCreated, ServerSeedSealed and the
    # deal's five events are in.
    assert {line["version"] for line in of_jobs} >= {7, 8}
