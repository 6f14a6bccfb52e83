"""St Patrick over HTTP: a whole game of humans on fixed decks, a human among bots whose turns,
round scoring and next deals all happen on the workers, and the scoring job run twice."""

from __future__ import annotations

import random
import uuid

import pytest

from domain.games import get_game_type
from domain.tables import table as tables
from tests.api.play import auth, create_game, humans, play_one, tokens_of, wait_for
from tests.workers import in_process
from tests.workers.in_process import count_of, loaded, run_jobs
from workers import jobs
from workers.relay import relay_pending, sweep_stale

SUITS = ("clover", "cross", "harp", "snake")


def a_deck(seed: int) -> list[dict]:
    cards = [{"suit": suit, "rank": rank} for suit in SUITS for rank in range(1, 10)]
    random.Random(seed).shuffle(cards)
    return cards


def key(card: dict) -> tuple[str, int]:
    return (card["suit"], card["rank"])


def hands_of(client, game_id: str, tokens: dict[int, str]) -> dict[int, set]:
    views = {
        s: client.get(f"/games/{game_id}", headers=auth(t)).get_json() for s, t in tokens.items()
    }
    return {seat: {key(card) for card in view["you"]["hand"]} for seat, view in views.items()}


def dealt_slices(deck: list[dict], players: int) -> dict[int, set]:
    size = len(deck) // players
    return {s: {key(card) for card in deck[s * size : (s + 1) * size]} for s in range(players)}


def test_a_table_of_four_humans_plays_a_whole_game_on_fixed_decks(client, worker):
    decks = [a_deck(1), a_deck(2)]
    created = create_game(client, "st_patrick", humans(4), {"decks": decks})
    game_id, tokens, rng = created["id"], tokens_of(created), random.Random(3)
    assert created["phase"] == "passing" and created["round"] == 1
    assert all(seat["life"] == 20 and seat["relics"] == 0 for seat in created["seats"])
    assert hands_of(client, game_id, tokens) == dealt_slices(decks[0], 4)
    seen_round_2 = False
    for _ in range(3000):
        game = wait_for(client, game_id, lambda g: g["to_act"] or g["status"] == "finished")
        if game["status"] == "finished":
            break
        if game["round"] == 2 and not seen_round_2:  # the next deck, dealt on the worker
            seen_round_2 = True
            assert hands_of(client, game_id, tokens) == dealt_slices(decks[1], 4)
        seat = game["to_act"][0]
        play_one(client, game_id, seat, tokens[seat], rng)
    final = client.get(f"/games/{game_id}").get_json()
    assert final["status"] == "finished" and final["to_act"] == []
    assert seen_round_2 and final["round"] >= 2, final["round"]
    assert set(final["result"]["winners"]) | set(final["result"]["losers"]) == {0, 1, 2, 3}
    assert min(figures["life"] for figures in final["result"]["final"].values()) <= 0
    events = client.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]
    scored = [e for e in events if e["type"] == "RoundScored"]
    assert len(scored) == final["round"] and [e["data"]["round"] for e in scored] == list(
        range(1, final["round"] + 1)
    )
    assert all(e["seat"] is None for e in scored)  # the workers' work, not a seat's


def test_a_human_plays_by_the_api_while_bots_scoring_and_deals_run_on_the_workers(client, worker):
    seats = [{"kind": "bot", "level": "random"}] * 3 + [{"kind": "human", "name": "Pat"}]
    game = create_game(client, "st_patrick", seats)
    token, rng = tokens_of(game)[3], random.Random(5)
    while True:
        state = wait_for(
            client, game["id"], lambda g: g["status"] == "finished" or 3 in g["to_act"]
        )
        if state["status"] == "finished":
            break
        play_one(client, game["id"], 3, token, rng)
    mine = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()
    assert mine["result"] == state["result"] and mine["result"]["winners"]
    events = client.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    assert [e["type"] for e in events].count("RoundScored") == mine["round"]


# --- the scoring job, run in this process on a database of this module's own ---------------


@pytest.fixture()
def worker_context(monkeypatch, private_database_url, redis_url):
    urls = (private_database_url, redis_url)
    with in_process.worker_context(monkeypatch, *urls, "stp-test") as ctx:
        yield ctx


def bots_to_scoring(ctx) -> tuple[uuid.UUID, int]:
    """A table of bots played by running their turns' jobs here, up to the first scoring."""
    game_id = uuid.uuid4()
    seats = (tables.SeatInfo(tables.BOT, level="random"),) * 3
    commands = ctx.cardroom().commands
    commands.create(game_id, get_game_type("st_patrick"), tables.CreateTable(seats, {}))
    for _ in range(1000):
        table, version = loaded(ctx, game_id)
        if table.game_type.automatic(table.game):
            with ctx.cardroom().pool.connection() as conn:  # turns run here, not by a relay
                conn.execute(
                    "UPDATE outbox SET done_at = now() WHERE game_id = %s AND version < %s",
                    (game_id, version),
                )
            return game_id, version
        seat = table.game_type.to_act(table.game)[0]
        assert jobs.run_work(str(game_id), version, f"bot-{seat}") == "done"
    raise AssertionError("no round ended")


def test_the_scoring_job_appends_once_however_often_it_runs(worker_context):
    game_id, version = bots_to_scoring(worker_context)
    assert count_of(worker_context, game_id, "RoundScored") == 0

    assert jobs.run_work(str(game_id), version, "scoring") == "done"
    after_first = loaded(worker_context, game_id)[1]
    assert jobs.run_work(str(game_id), version, "scoring") == "stale"
    # the same job queued twice (relay and sweeper), run by a real RQ worker
    queue = worker_context.queue()
    for _ in range(2):
        queue.enqueue(jobs.run_work, str(game_id), version, "scoring")
    run_jobs(worker_context)

    table, current = loaded(worker_context, game_id)
    assert current == after_first > version
    assert count_of(worker_context, game_id, "RoundScored") == 1
    assert table.game.round == 2 or table.status == "finished"  # dealt at once, same commit


def test_the_sweeper_re_enqueues_a_round_scoring_that_redis_lost(worker_context):
    game_id, version = bots_to_scoring(worker_context)
    relay_pending()  # the scoring row becomes a job...
    for queue in worker_context.queues():  # ...that a Redis restart loses; the outbox keeps them
        queue.empty()
    run_jobs(worker_context)
    assert count_of(worker_context, game_id, "RoundScored") == 0

    assert sweep_stale(older_than_seconds=0) >= 1
    run_jobs(worker_context)

    assert count_of(worker_context, game_id, "RoundScored") == 1
    assert loaded(worker_context, game_id)[1] > version
