"""A player's webhooks through the API, delivered by a real worker process to a real receiver on
127.0.0.1 that verifies every signature with `standardwebhooks`: registered with a secret shown
once, kept to the player, refused for addresses of the server's own networks; every notice
delivered at least once, in order, again after a 500 or a timeout, under one `webhook-id`; an
endpoint failing too often disabled, with a notice; and never a card in a payload or a log.

The suite's worker retries after 0.2 s and disables after 4 failures in a row
(tests/api/conftest.py): the defaults' 5 s and 20 would outlast a test."""

from __future__ import annotations

import random
import time
import uuid

import pytest

from events.credentials import token_hash
from tests.api.knowledge import cards_shown
from tests.api.play import auth, create_game
from tests.api.test_errors import assert_problem
from tests.api.test_players import act_first_legal, bot, me, new_player
from tests.api.webhook_receiver import HANG, Receiver, receiving

NOTICE_KEYS = {"id", "kind", "game_id", "version", "seat", "at"}


def register(client, key: str, url: str, events: list[str] | None = None) -> dict:
    body = {"url": url, "events": events or ["invited"]}
    response = client.post("/me/webhooks", json=body, headers=auth(key))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def invite(client, host_key: str, guest_id: str) -> dict:
    """A table of the host's with a seat kept for the guest: the guest gets an `invited`."""
    seats = [me(), {"kind": "open", "player": guest_id}, bot()]
    return create_game(client, "trick_and_snipers", seats, headers=auth(host_key))


def listed(client, key: str) -> list[dict]:
    response = client.get("/me/webhooks", headers=auth(key))
    assert response.status_code == 200
    return response.get_json()["items"]


def attempts(client, key: str, webhook_id: str) -> list[dict]:
    response = client.get(f"/me/webhooks/{webhook_id}/deliveries", headers=auth(key))
    assert response.status_code == 200, response.get_json()
    return response.get_json()["items"]


def until(check, within: float = 30.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("not within the time")


def receiver_for(client, key: str, receiver: Receiver, events: list[str] | None = None) -> dict:
    webhook = register(client, key, receiver.url, events)
    receiver.secret = webhook["secret"]
    return webhook


# Registering, listing, removing


def test_a_webhook_is_registered_with_a_secret_shown_once_then_listed_without_it(client):
    ada = new_player(client, "Ada")
    webhook = register(client, ada["key"], "http://127.0.0.1:9/in", ["your_turn", "invited"])
    assert webhook["secret"].startswith("whsec_")
    assert webhook["events"] == ["your_turn", "invited"] and webhook["enabled"] is True
    items = listed(client, ada["key"])
    assert [item["id"] for item in items] == [webhook["id"]]
    assert "secret" not in items[0] and webhook["secret"] not in str(items)


def test_the_secret_is_kept_sealed_not_in_the_clear(client, app):
    ada = new_player(client, "Ada")
    webhook = register(client, ada["key"], "http://127.0.0.1:9/in")
    with app.extensions["cardroom"].pool.connection() as conn:
        row = conn.execute(
            "SELECT * FROM webhook_endpoints WHERE id = %s", (webhook["id"],)
        ).fetchone()
    secret = webhook["secret"]
    assert secret not in str(row) and secret.removeprefix("whsec_") not in str(row)


def test_a_removed_webhook_is_gone(client):
    ada = new_player(client, "Ada")
    webhook = register(client, ada["key"], "http://127.0.0.1:9/in")
    removed = client.delete(f"/me/webhooks/{webhook['id']}", headers=auth(ada["key"]))
    assert removed.status_code == 204
    assert listed(client, ada["key"]) == []
    again = client.delete(f"/me/webhooks/{webhook['id']}", headers=auth(ada["key"]))
    assert_problem(again, 404, "not-found")


def test_another_players_webhook_is_not_found(client):
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    webhook = register(client, ada["key"], "http://127.0.0.1:9/in")
    for method, path in (
        ("delete", f"/me/webhooks/{webhook['id']}"),
        ("get", f"/me/webhooks/{webhook['id']}/deliveries"),
        ("post", f"/me/webhooks/{webhook['id']}/test"),
        ("get", f"/me/webhooks/{uuid.uuid4()}/deliveries"),
        ("get", "/me/webhooks/not-an-id/deliveries"),
    ):
        assert_problem(getattr(client, method)(path, headers=auth(bob["key"])), 404, "not-found")
    assert listed(client, bob["key"]) == []
    assert len(listed(client, ada["key"])) == 1


def test_webhooks_need_a_players_key(client):
    assert_problem(client.get("/me/webhooks"), 401, "unauthorized")
    body = {"url": "http://127.0.0.1:9/", "events": ["invited"]}
    assert_problem(client.post("/me/webhooks", json=body), 401, "unauthorized")
    bad = auth("pk_not-a-key")
    assert_problem(client.post("/me/webhooks", json=body, headers=bad), 401, "unauthorized")


def test_a_player_has_five_webhooks_at_most(client):
    ada = new_player(client, "Ada")
    for n in range(5):
        register(client, ada["key"], f"http://127.0.0.1:9/{n}")
    body = {"url": "http://127.0.0.1:9/6", "events": ["invited"]}
    sixth = client.post("/me/webhooks", json=body, headers=auth(ada["key"]))
    assert_problem(sixth, 409, "limit-reached")
    assert len(listed(client, ada["key"])) == 5


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",  # link-local: refused even in development
        "http://[fe80::1]/",
        "http://0.0.0.0:80/",
        "http://100.64.0.1/",
        "http://[::ffff:169.254.169.254]/",
        "ftp://127.0.0.1/",
        "http://user:secret@127.0.0.1:9/",
        "not a url",
    ],
)
def test_a_url_the_address_rules_refuse_is_a_clear_400_and_changes_nothing(client, url):
    ada = new_player(client, "Ada")
    response = client.post(
        "/me/webhooks", json={"url": url, "events": ["invited"]}, headers=auth(ada["key"])
    )
    assert_problem(response, 400, "validation-error")
    assert "url" in response.get_json()["errors"]
    assert listed(client, ada["key"]) == []


@pytest.mark.parametrize(
    "body",
    [
        {"url": "http://127.0.0.1:9/"},
        {"url": "http://127.0.0.1:9/", "events": []},
        {"url": "http://127.0.0.1:9/", "events": ["everything"]},
        {"url": "", "events": ["invited"]},
        {"url": 7, "events": ["invited"]},
        {"url": "http://127.0.0.1:9/", "events": ["invited"], "secret": "mine"},
    ],
)
def test_a_body_off_the_schema_is_a_400_and_changes_nothing(client, body):
    ada = new_player(client, "Ada")
    response = client.post("/me/webhooks", json=body, headers=auth(ada["key"]))
    assert_problem(response, 400, "validation-error")
    assert listed(client, ada["key"]) == []


# Deliveries, by a real worker, to a real receiver


def test_every_notice_reaches_the_receiver_signed_once_each_and_in_order(client, worker):
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as receiver:
        receiver_for(client, bob["key"], receiver)
        games = [invite(client, ada["key"], bob["id"])["id"] for _ in range(5)]
        delivered = receiver.wait_for(5)
    assert receiver.unverified == []
    assert [r.payload["game_id"] for r in delivered] == games
    assert [r.payload["id"] for r in delivered] == sorted(r.payload["id"] for r in delivered)
    assert all(set(r.payload) == NOTICE_KEYS and r.payload["kind"] == "invited" for r in delivered)
    assert len({r.webhook_id for r in delivered}) == 5


def test_a_delivery_answered_500_is_sent_again_under_the_same_webhook_id(client, worker):
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as receiver:
        receiver.plan = [500, 500]
        webhook = receiver_for(client, bob["key"], receiver)
        invite(client, ada["key"], bob["id"])
        receiver.wait_for(1)
    tries = receiver.received
    assert [r.answered for r in tries] == [500, 500, 200]
    assert len({r.webhook_id for r in tries}) == 1 and len({r.body for r in tries}) == 1
    log = attempts(client, bob["key"], webhook["id"])
    assert [(a["attempt"], a["status"], a["delivered"]) for a in log] == [
        (3, 200, True), (2, 500, False), (1, 500, False),
    ]  # fmt: skip
    assert {a["webhook_id"] for a in log} == {tries[0].webhook_id}
    assert log[0]["answer"] == '{"ok": true}' and log[0]["latency_ms"] >= 0
    assert listed(client, bob["key"])[0]["failures_in_a_row"] == 0


def test_a_receiver_that_does_not_answer_within_5_s_gets_the_delivery_again(client, worker):
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as receiver:
        receiver.plan = [HANG]
        webhook = receiver_for(client, bob["key"], receiver)
        invite(client, ada["key"], bob["id"])
        receiver.wait_for(1, within=40)
    assert [r.answered for r in receiver.received] == [HANG, 200]
    assert receiver.received[0].webhook_id == receiver.received[1].webhook_id
    timed_out, delivered = reversed(attempts(client, bob["key"], webhook["id"]))
    assert timed_out["status"] is None and timed_out["error"] == "timed out"
    assert 4500 <= timed_out["latency_ms"] < 7000
    assert delivered["delivered"] is True


def test_a_delivery_being_retried_holds_back_no_later_one(client, worker):
    # Given a receiver that fails Bob's first notice three times while three more come
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as receiver:
        receiver.failing = {1: 3}
        receiver_for(client, bob["key"], receiver)
        games = [invite(client, ada["key"], bob["id"])["id"] for _ in range(4)]
        receiver.wait_for(4)
    # Then a later notice was delivered while the first was still being retried
    tries = [(r.payload["id"], r.answered) for r in receiver.received]
    first_delivered = tries.index((1, 200))
    assert [answered for number, answered in tries if number == 1] == [500, 500, 500, 200]
    assert any(number > 1 and answered == 200 for number, answered in tries[:first_delivered])
    # And every notice came once, the later ones among themselves in the notices' order
    assert sorted(r.payload["game_id"] for r in receiver.delivered()) == sorted(games)
    later = [number for number, answered in tries if number > 1 and answered == 200]
    assert later == [2, 3, 4]


def test_an_endpoint_has_one_delivery_in_flight_at_a_time(client, worker):
    # Given a receiver that takes 5 s and more over Bob's first notice (it times out)
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as receiver:
        receiver.plan = [HANG]
        receiver_for(client, bob["key"], receiver)
        invite(client, ada["key"], bob["id"])
        invite(client, ada["key"], bob["id"])
        receiver.wait_for(2, within=40)
    # Then nothing else was sent to it while it hung
    ids = [r.payload["id"] for r in receiver.received]
    assert ids[0] == 1 and receiver.received[0].answered == HANG
    assert receiver.received[1].at - receiver.received[0].at >= 4.5


def test_a_receiver_down_while_more_notices_come_than_the_failure_limit_gets_them_all(
    client, worker
):
    # Given Bob's receiver failing its first five requests while six notices come: more failures
    # in a row than the 4 the suite allows, spread over the notices (later ones pass one being
    # retried), so that no one delivery fails 4 times
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as receiver:
        receiver.plan = [500] * 5
        receiver_for(client, bob["key"], receiver)
        games = [invite(client, ada["key"], bob["id"])["id"] for _ in range(6)]
        # When it answers again
        receiver.wait_for(6)
    # Then no delivery failed 4 times, the endpoint is still enabled, and every notice came
    assert [r.answered for r in receiver.received[:5]] == [500] * 5
    assert sorted(r.payload["game_id"] for r in receiver.delivered()) == sorted(games)
    state = listed(client, bob["key"])[0]
    assert state["enabled"] and state["disabled_at"] is None


def test_an_endpoint_that_fails_too_often_is_disabled_with_a_notice(client, app, worker):
    # Given Bob's receiver that always answers 500, and a second webhook told of disabling
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    with receiving() as failing, receiving() as watching:
        failing.plan = [500] * 100
        webhook = receiver_for(client, bob["key"], failing)
        receiver_for(client, bob["key"], watching, ["endpoint_disabled"])
        invite(client, ada["key"], bob["id"])
        # When it has failed as often as the worker allows in a row (4 in the suite)
        disabled = until(lambda: not listed(client, bob["key"])[0]["enabled"])
        told = watching.wait_for(1)
        time.sleep(0.5)  # a fifth attempt would have come by now
        assert len(failing.received) == 4
    # Then it is disabled, its player's stream has the notice, and nothing more is sent
    assert disabled
    state = listed(client, bob["key"])[0]
    assert state["failures_in_a_row"] == 4 and state["disabled_at"] is not None
    services = app.extensions["cardroom"]
    _, notices = services.players.notices_for_key(
        uuid.UUID(bob["id"]), token_hash(bob["key"]), 0, 100
    )
    last = notices[-1]
    assert (last.kind, last.game_id, last.version, last.seat) == (
        "endpoint_disabled", None, None, None,
    )  # fmt: skip
    assert told[0].payload["kind"] == "endpoint_disabled" and told[0].payload["id"] == last.number
    ping = client.post(f"/me/webhooks/{webhook['id']}/test", headers=auth(bob["key"]))
    assert_problem(ping, 409, "webhook-disabled")


def test_a_ping_is_delivered_signed_and_shows_in_the_deliveries(client, worker):
    bob = new_player(client, "Bob")
    with receiving() as receiver:
        webhook = receiver_for(client, bob["key"], receiver)
        sent = client.post(f"/me/webhooks/{webhook['id']}/test", headers=auth(bob["key"]))
        assert sent.status_code == 202
        (ping,) = receiver.wait_for(1)
    assert ping.webhook_id == sent.get_json()["webhook_id"]
    assert ping.payload["kind"] == "ping" and ping.payload["id"] is None
    (logged,) = attempts(client, bob["key"], webhook["id"])
    assert logged["kind"] == "ping" and logged["status"] == 200


def test_no_card_is_in_a_webhook_payload_or_a_delivery_log(client, worker):
    # Given Ada at a table with bots, her webhook told of everything, and a move of hers
    ada = new_player(client, "Ada")
    kinds = ["your_turn", "game_started", "game_ended", "invited", "timed_out", "seat_lost"]
    with receiving() as receiver:
        webhook = receiver_for(client, ada["key"], receiver, kinds)
        game = create_game(
            client, "trick_and_snipers", [me(), bot(), bot()], headers=auth(ada["key"])
        )
        act_first_legal(client, game["id"], ada["key"], random.Random(3))
        delivered = receiver.wait_for(2)
    # Then no payload and no logged attempt shows a card (by shape, or named in text)
    log = attempts(client, ada["key"], webhook["id"])
    assert log and delivered
    for r in delivered:
        assert list(cards_shown(r.payload)) == [] and list(cards_shown(r.body.decode())) == []
        assert set(r.payload) == NOTICE_KEYS and r.payload["game_id"] == game["id"]
    assert list(cards_shown(log)) == []


def test_a_webhook_subscribes_to_exactly_the_notice_kinds_the_spec_names():
    from events.webhooks.endpoints import KINDS
    from tests.api.spec import load_spec

    assert set(load_spec()["components"]["schemas"]["NoticeKind"]["enum"]) == set(KINDS)
