"""Tables that survive real people, with real Postgres, Redis and worker processes: a human who
leaves mid-game is replaced by the basic bot, which finishes the game; a silent seat is timed
out and played for, and after three timeouts in a row it has left; a turn timer survives a
worker restart, fires once, and never after the seat has acted."""

from __future__ import annotations

import dataclasses
import random
import time
import uuid
from collections.abc import Iterator

import pytest

from domain.games import GAME_TYPES
from tests.api.play import action_from, auth, create_game, humans, tokens_of, wait_for
from tests.service import start_worker, stop_worker

BOT = {"kind": "bot", "level": "random"}
TIMER = {"turn_seconds": 5}


def events_of(client, game_id: str) -> list[dict]:
    return client.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]


def mid_game(client, game_id: str, token: str) -> None:
    """Acts for the seat until something is on the table (a trick, a river) or it is round 2."""
    rng = random.Random(1)
    for _ in range(200):
        game = client.get(f"/games/{game_id}", headers=auth(token)).get_json()
        busy = game.get("trick") or game.get("river") or game["round"] > 1
        if busy and game["status"] == "active":
            return
        if game["you"]["legal_actions"]:
            action = action_from(game["you"]["legal_actions"][0], rng)
            client.post(f"/games/{game_id}/actions", json=action, headers=auth(token))
        else:
            time.sleep(0.05)
    raise AssertionError("the game never got going")


@pytest.mark.parametrize("game_type", list(GAME_TYPES))
def test_a_human_who_leaves_mid_game_is_replaced_by_a_bot_that_finishes_it(
    client, worker, game_type
):
    seats = [*humans(1), BOT, BOT] if game_type != "saint_poker" else [*humans(1), BOT]
    created = create_game(client, game_type, seats)
    game, token = created["id"], tokens_of(created)[0]
    mid_game(client, game, token)
    left = client.post(f"/games/{game}/seats/0/leave", headers=auth(token))
    assert left.status_code == 201 and "invite" not in left.get_json()
    assert client.get(f"/games/{game}", headers=auth(token)).status_code == 401
    seat = client.get(f"/games/{game}").get_json()["seats"][0]
    assert (seat["kind"], seat["level"], seat["left"], seat["name"]) == (
        "bot", "basic", True, "player 0"
    )  # fmt: skip
    finished = wait_for(client, game, lambda g: g["status"] == "finished", timeout=90)
    assert finished["result"]["winners"] or finished["result"]["losers"]
    assert [e["type"] for e in events_of(client, game)].count("SeatLeft") == 1
    audit = client.get(f"/games/{game}/audit").get_json()
    assert audit["rules_ok"] and audit["chain_ok"] and audit["signature_ok"]


def test_a_seat_left_before_the_deal_opens_again(client):
    created = create_game(client, "trick_and_snipers", [*humans(2), {"kind": "open"}])
    token = tokens_of(created)[1]
    left = client.post(f"/games/{created['id']}/seats/1/leave", headers=auth(token))
    seat = client.get(f"/games/{created['id']}").get_json()["seats"][1]
    assert left.status_code == 201 and seat["kind"] == "open"
    joined = client.post(
        f"/games/{created['id']}/seats/1/join",
        json={"name": "Bo", "invite": left.get_json()["invite"]},
    )
    assert joined.status_code == 201


def test_only_the_seats_own_token_leaves_it(client):
    created = create_game(client, "trick_and_snipers", humans(3))
    other = client.post(
        f"/games/{created['id']}/seats/0/leave", headers=auth(tokens_of(created)[1])
    )
    assert other.status_code == 401
    assert client.get(f"/games/{created['id']}").get_json()["seats"][0]["kind"] == "human"


def deadlines_of(game: dict) -> dict[int, str]:
    return {seat["seat"]: seat["deadline"] for seat in game["seats"] if "deadline" in seat}


def test_every_answer_shows_the_deadlines_the_game_has_and_a_replay_none(client):
    # Given a timed table of three humans, dealt at once (the same answer to a retry)
    body = {"type": "trick_and_snipers", "seats": humans(3), "options": {"turn_seconds": 60}}
    retried = {"Idempotency-Key": str(uuid.uuid4())}
    created = client.post("/games", json=body, headers=retried).get_json()
    game, tokens = created["id"], tokens_of(created)
    # Then its creation shows each seat's deadline, as a GET of it does, and so does a retry
    waited = deadlines_of(created)
    assert waited.keys() == {0, 1, 2}
    shown = client.get(f"/games/{game}", headers=auth(tokens[0])).get_json()
    assert deadlines_of(shown) == waited
    assert deadlines_of(client.post("/games", json=body, headers=retried).get_json()) == waited
    # When seat 0 acts, its answer (and a retry's) shows the seats still waited for, as a GET
    action = action_from(shown["you"]["legal_actions"][0], random.Random(1))
    headers = {**auth(tokens[0]), "Idempotency-Key": "pass-0"}
    acted = client.post(f"/games/{game}/actions", json=action, headers=headers).get_json()
    again = client.post(f"/games/{game}/actions", json=action, headers=headers).get_json()
    now = client.get(f"/games/{game}", headers=auth(tokens[1])).get_json()
    assert deadlines_of(acted["game"]) == deadlines_of(again["game"]) == deadlines_of(now)
    assert deadlines_of(now) == {1: waited[1], 2: waited[2]}
    # And a replay of a past version shows no deadline
    replayed = client.get(f"/games/{game}/replay?version={created['version']}").get_json()
    assert deadlines_of(replayed) == {}


def test_a_silent_seat_times_out_is_played_for_and_after_three_timeouts_has_left(client, worker):
    created = create_game(client, "trick_and_snipers", [*humans(1), BOT, BOT], TIMER)
    game, token = created["id"], tokens_of(created)[0]
    mine = client.get(f"/games/{game}", headers=auth(token)).get_json()
    assert "deadline" in mine["seats"][0] and mine["seats"][0]["deadline"].endswith("Z")
    gone = wait_for(client, game, lambda g: g["seats"][0]["kind"] == "bot", timeout=40)
    assert gone["seats"][0]["left"] is True
    log = events_of(client, game)
    timed_out = [i for i, e in enumerate(log) if e["type"] == "TurnTimedOut"]
    assert [log[i]["data"]["count"] for i in timed_out] == [1, 2, 3]
    for i in timed_out[:2]:  # each followed by the move made for the seat: a legal one
        assert log[i + 1]["seat"] == 0 and log[i + 1]["type"] in {"CardsPassed", "CardPlayed"}
    assert log[timed_out[2] + 1]["type"] == "SeatLeft"
    assert log[timed_out[2] + 1]["data"] == {"seat": 0, "reason": "timeouts"}
    assert client.get(f"/games/{game}", headers=auth(token)).status_code == 401
    assert client.get(f"/games/{game}/audit").get_json()["rules_ok"]  # timeouts re-decided


@pytest.fixture()
def own_worker(settings, private_database_url) -> Iterator:
    """A database and a queue of this test's own, and a way to stop and start its worker."""
    mine = dataclasses.replace(
        settings, database_url=private_database_url, queue_name=f"timers-{uuid.uuid4().hex[:6]}"
    )
    processes = [start_worker(mine)]
    yield mine, processes
    for process in processes:
        stop_worker(process)


def test_a_timer_survives_a_worker_restart_fires_once_and_never_after_the_seat_acted(
    own_worker,
):
    from api import create_app

    settings, processes = own_worker
    app = create_app(settings)
    client = app.test_client()
    try:
        silent = create_game(client, "trick_and_snipers", [*humans(1), BOT, BOT], TIMER)
        prompt = create_game(client, "trick_and_snipers", [*humans(1), BOT, BOT], TIMER)
        stop_worker(processes.pop())  # every worker is down...
        time.sleep(6)  # ...while both deadlines pass
        hand = client.get(f"/games/{prompt['id']}", headers=auth(tokens_of(prompt)[0]))
        template = hand.get_json()["you"]["legal_actions"][0]
        acted = client.post(
            f"/games/{prompt['id']}/actions",
            json=action_from(template, random.Random(2)),
            headers=auth(tokens_of(prompt)[0]),
        )
        assert acted.status_code == 201  # the seat acts late, before any worker is back
        processes.append(start_worker(settings))
        wait_for(client, silent["id"], lambda g: any(
            e["type"] == "TurnTimedOut" for e in events_of(client, silent["id"])
        ), timeout=20)  # fmt: skip
        time.sleep(1.5)  # a second firing, or one for the seat that acted, would show by now
        silent_log, prompt_log = events_of(client, silent["id"]), events_of(client, prompt["id"])
    finally:
        app.extensions["cardroom"].pool.close()
    first_turn = [e for e in silent_log if e["type"] == "TurnTimedOut"]
    assert [e["data"]["count"] for e in first_turn][:1] == [1]
    assert sum(1 for e in first_turn if e["data"]["count"] == 1) == 1
    assert not [e for e in prompt_log if e["type"] == "TurnTimedOut" and e["data"]["count"] == 1
                and e["version"] < acted.get_json()["version"]]  # fmt: skip
    passes = [e for e in prompt_log if e["type"] == "CardsPassed" and e["seat"] == 0]
    assert len(passes) == 1  # its own pass only, never one made for it
