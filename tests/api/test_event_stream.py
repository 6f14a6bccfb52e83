"""GET /games/{id}/events/stream: Server-Sent Events from a real threaded server (the Flask
test client buffers a streamed body), on the session's database, with bots on a real worker."""

from __future__ import annotations

import dataclasses
import random
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import requests
from werkzeug.serving import make_server

from api import create_app
from api.streams.hub import stream_hub
from domain.kit.templates import action_from_template
from events.postgres.notifications import GameNotifier
from events.wakeups import GAME_CHANNEL
from testing.sse import Stream
from tests.api.knowledge import cards_of, cards_shown
from tests.api.play import join_body
from tests.api.real_server import gunicorn_serving, pushpin_serving

HEARTBEAT = 1.0  # Pushpin's keep-alive counts whole seconds
GAME = "trick_and_snipers"


@contextmanager
def serving(settings) -> Iterator[str]:
    """The app with these settings on a real threaded server, on a free port (`.app`)."""
    app = create_app(settings)
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    serving.app = app
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        hub = app.extensions.get("cardroom_streams")
        if hub is not None:
            hub.close()  # open streams end at once
            time.sleep(0.2)
        httpd.shutdown()
        app.extensions["cardroom"].pool.close()


@pytest.fixture(scope="module", params=["embedded", "pushpin"])
def server(request, settings, tmp_path_factory) -> Iterator[str]:
    """Each test on both paths, as `make run` serves them: gunicorn's workers serving the
    streams themselves, and Pushpin in front holding them, fed by a worker's publisher."""
    environment = {"STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT), "RATE_LIMITS": "off"}
    if request.param == "embedded":
        with gunicorn_serving(settings, **environment) as served:
            yield f"http://127.0.0.1:{served.port}"
        return
    with pushpin_serving(settings, tmp_path_factory.mktemp("pushpin"), **environment) as front:
        yield front.url


def new_game(server: str, seats: list[dict], options: dict | None = None) -> dict:
    body = {"type": GAME, "seats": seats, "options": options or {}}
    response = requests.post(f"{server}/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def bots(count: int) -> list[dict]:
    return [{"kind": "bot", "level": "random"}] * count


def game_state(server: str, game_id: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(f"{server}/games/{game_id}", headers=headers, timeout=10).json()


def act(server: str, game_id: str, token: str, rng: random.Random) -> dict:
    mine = game_state(server, game_id, token)
    action = action_from_template(rng.choice(mine["you"]["legal_actions"]), rng)
    response = requests.post(
        f"{server}/games/{game_id}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return response.json()


def wait_until(server: str, game_id: str, predicate, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = game_state(server, game_id)
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"timed out at version {state['version']}")


def human_leads(server: str) -> tuple[dict, str]:
    """A human at seat 0 (who leads the first trick) and two bots; returns once the passing is
    over, so nothing moves until the human plays."""
    created = new_game(server, [{"kind": "human", "name": "Ana"}, *bots(2)], {"first_leader": 0})
    token = created["tokens"][0]["token"]
    act(server, created["id"], token, random.Random(1))  # the human's pass
    wait_until(server, created["id"], lambda g: g["to_act"] == [0] and g["phase"] != "passing")
    return created, token


def test_a_stream_open_before_a_bot_moves_receives_that_move(server, worker):
    created, token = human_leads(server)
    version = game_state(server, created["id"])["version"]
    stream = Stream(f"{server}/games/{created['id']}/events/stream?after={version}")
    messages = stream.messages()
    assert "comment" in next(messages)  # the stream is open (and subscribed) from here on
    act(server, created["id"], token, random.Random(2))
    seen = []
    for message in messages:
        if "data" in message:
            seen.append(message)
            if message["event"] == "CardPlayed" and message["data"]["seat"] == 1:
                break
    stream.close()
    assert [int(m["id"]) for m in seen] == list(range(version + 1, version + 1 + len(seen)))
    assert seen[-1]["data"]["data"]["seat"] == 1


def test_a_client_that_reconnects_with_last_event_id_gets_every_missed_event_once_in_order(
    server, worker
):
    created = new_game(server, bots(3))
    url = f"{server}/games/{created['id']}/events/stream"
    first = Stream(url)
    received = [e for _, e in zip(range(5), first.events(), strict=False)]
    first.close()
    time.sleep(0.5)  # the bots play on meanwhile
    second = Stream(url, headers={"Last-Event-ID": received[-1]["id"]})
    received += list(second.events())  # ends by itself after the final event
    final = game_state(server, created["id"])
    assert final["status"] == "finished"
    assert [int(e["id"]) for e in received] == list(range(1, final["version"] + 1))
    assert received[-1]["event"] == "GameEnded"
    assert all(e["event"] == e["data"]["type"] for e in received)


def test_a_seat_never_receives_another_seats_secret_through_the_stream(server, worker):
    created, token = human_leads(server)
    act(server, created["id"], token, random.Random(3))  # leads; the bots answer
    wait_until(server, created["id"], lambda g: g["to_act"] == [0])
    stream = Stream(f"{server}/games/{created['id']}/events/stream?access_token={token}")
    events = []
    for event in stream.events():
        events.append(event["data"])
        if event["data"]["type"] == "CardPlayed" and event["data"]["seat"] == 2:
            break
    stream.close()
    known: set = set()
    for event in events:
        data = event["data"]
        if event["type"] in {"HandDealt", "CardsReceived"} and data["seat"] == 0:
            known |= cards_of(data["cards"])
        if event["type"] in {"CardPlayed", "TrickWon"}:
            known |= {card for _, card in cards_shown(data)}
        leaked = {card for _, card in cards_shown(data)} - known
        assert not leaked, f"{event['type']} v{event['version']} shows {leaked}"
    hidden = [e for e in events if e["type"] in {"HandDealt", "DeckSealed"} and e["seat"] != 0]
    assert hidden and all("cards" not in e["data"] and "deck" not in e["data"] for e in hidden)


def test_an_idle_stream_sends_a_comment_at_least_every_heartbeat(server):
    created = new_game(server, [{"kind": "human", "name": "A"}, {"kind": "open"}, *bots(1)])
    stream = Stream(f"{server}/games/{created['id']}/events/stream?after=99")
    started = time.monotonic()
    comments = [m for _, m in zip(range(4), stream.messages(), strict=False)]
    elapsed = time.monotonic() - started
    stream.close()
    assert all("comment" in m for m in comments)
    assert comments[-1]["comment"] == "keep-alive"
    assert elapsed < 3 * HEARTBEAT + 1.0  # Pushpin beats up to a second early, at random


def test_a_finished_game_streams_its_whole_log_and_ends(server, worker):
    created = new_game(server, bots(3))
    wait_until(server, created["id"], lambda g: g["status"] == "finished", timeout=60)
    stream = Stream(f"{server}/games/{created['id']}/events/stream?after=3")
    streamed = [event["data"] for event in stream.events()]  # ends by itself
    stream.close()
    log = requests.get(f"{server}/games/{created['id']}/events?limit=1000", timeout=10).json()
    assert streamed == log["events"][3:]


def test_stream_errors_are_problems_before_the_first_byte(client):
    created = client.post("/games", json={"type": GAME, "seats": bots(3), "options": {}})
    url = f"/games/{created.get_json()['id']}/events/stream"
    unknown = client.get("/games/00000000-0000-4000-8000-000000000000/events/stream")
    wrong_header = client.get(url, headers={"Authorization": "Bearer nope"})
    wrong_query = client.get(f"{url}?access_token=nope")
    bad_resume = client.get(url, headers={"Last-Event-ID": "seven"})
    bad_after = client.get(f"{url}?after=-1")
    statuses = [r.status_code for r in (unknown, wrong_header, wrong_query, bad_resume, bad_after)]
    assert statuses == [404, 401, 401, 400, 400]
    assert all(r.mimetype == "application/problem+json" for r in (unknown, wrong_query))


def test_a_resume_point_past_the_highest_version_is_a_validation_error(client):
    """The game stream's `after` reaches 2**31 - 1, a version's range, as the spec says (the
    notice stream's, read by the same schema, reaches 2**62)."""
    created = client.post("/games", json={"type": GAME, "seats": bots(3), "options": {}})
    url = f"/games/{created.get_json()['id']}/events/stream"
    refused = client.get(f"{url}?after={2**31}")
    assert refused.status_code == 400 and refused.mimetype == "application/problem+json"
    assert "after" in refused.get_json()["errors"]


def test_a_commit_wakes_the_waiters_of_its_game_by_notify_and_no_others(server, settings):
    notifier = GameNotifier(settings.database_url)
    created = new_game(server, [{"kind": "human", "name": "A"}, {"kind": "open"}, *bots(1)])
    with (
        notifier.subscribe(uuid.UUID(created["id"])) as mine,
        notifier.subscribe(uuid.uuid4()) as other,
    ):
        assert notifier.listening.wait(10)
        mine.wait(0), other.wait(0)  # the wake-up every waiter gets when listening starts
        joined = requests.post(
            f"{server}/games/{created['id']}/seats/1/join",
            json=join_body(created, 1, "B"),
            timeout=10,
        )
        assert joined.status_code == 201
        woken = mine.wait(5)  # returns False on timeout: only a notification wakes it early
        assert woken and not other.wait(0.5)
    notifier.close()


def test_a_server_holding_all_the_streams_it_may_answers_503_with_retry_after(settings):
    alone = dataclasses.replace(settings, max_streams=1, queue_name=f"{settings.queue_name}-one")
    with serving(alone) as url:
        created = new_game(url, [{"kind": "human", "name": "A"}, {"kind": "open"}, *bots(1)])
        first = Stream(f"{url}/games/{created['id']}/events/stream")
        next(first.messages())
        refused = requests.get(f"{url}/games/{created['id']}/events/stream", timeout=10)
        first.close()
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    assert refused.headers["Content-Type"] == "application/problem+json"


def test_streams_still_get_every_event_by_polling_while_notifications_are_down(settings):
    with serving(dataclasses.replace(settings, stream_heartbeat_seconds=30)) as url:
        hub = stream_hub_of(serving.app)
        cannot_listen = GameNotifier("postgresql://nobody@127.0.0.1:1/none")
        hub.notifiers[GAME_CHANNEL] = cannot_listen
        created = new_game(url, [{"kind": "human", "name": "A"}, {"kind": "open"}, *bots(1)])
        stream = Stream(f"{url}/games/{created['id']}/events/stream")
        before = [e for _, e in zip(range(created["version"]), stream.events(), strict=False)]
        join_url = f"{url}/games/{created['id']}/seats/1/join"
        requests.post(join_url, json=join_body(created, 1, "B"), timeout=5)
        started = time.monotonic()
        joined = next(stream.events())
        stream.close()
        cannot_listen.close()
    assert len(before) == created["version"] and joined["event"] == "SeatJoined"
    assert time.monotonic() - started < 5  # the 1 s fallback poll, not the 30 s heartbeat


def stream_hub_of(app):
    with app.app_context():
        return stream_hub()
