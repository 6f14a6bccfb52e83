"""Saint Poker over HTTP: humans by the API while the round scoring runs on the workers, bots on
the workers, an idempotent scoring job, and simultaneous choices kept secret (G3)."""

from __future__ import annotations

import random
import uuid

import pytest

from domain.games import get_game_type
from domain.kit.codec import to_json
from domain.tables import table as tables
from tests.api.knowledge import cards_shown
from tests.api.play import auth, create_game, humans, play_one, tokens_of, wait_for
from tests.workers import in_process
from tests.workers.in_process import count_of, loaded, run_jobs
from workers.jobs import run_work
from workers.relay import relay_pending

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANKS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
EVERY_CARD = [(suit, rank) for suit in SUITS.values() for rank in range(2, 15)]
# The rulebook's example round for seats A-D (0-3): the first future river is 9h; they commit
# 8h 7h 2c 3s and reveal as below: B a straight flush, C a king-high flush, A a ten-high
# straight, D a nine-high straight.
EXAMPLE_HANDS = ["8h Td 6c", "7h 6h 5h", "2c Kh 4h", "3s 6d 5c"]
EXAMPLE_COMMITS = ["8h", "7h", "2c", "3s"]
EXAMPLE_REVEALS = ["Td 6c", "6h 5h", "Kh 4h", "6d 5c"]


def card_json(text: str) -> dict:
    return {"suit": SUITS[text[-1]], "rank": RANKS.get(text[:-1]) or int(text[:-1])}


def cards_json(text: str) -> list[dict]:
    return [card_json(word) for word in text.split()]


def example_deck() -> list[dict]:
    """Each hand filled up to 10 with the lowest unused cards, then 9h, then the rest."""
    named = [cards_json(hand) for hand in EXAMPLE_HANDS]
    used = {(c["suit"], c["rank"]) for hand in named for c in hand} | {("hearts", 9)}
    spare = [{"suit": s, "rank": r} for r in range(2, 15) for s in SUITS.values()]
    spare = [c for c in spare if (c["suit"], c["rank"]) not in used]
    deck: list[dict] = []
    for hand in named:
        fill = 10 - len(hand)
        deck += hand + spare[:fill]
        spare = spare[fill:]
    return deck + [card_json("9h")] + spare


def act(client, game_id: str, token: str, action: dict) -> dict:
    response = client.post(f"/games/{game_id}/actions", json=action, headers=auth(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play_until_finished(client, game_id: str, tokens: dict[int, str], rng: random.Random) -> dict:
    """Humans act by the API; whenever nobody is to act, the workers are scoring: wait."""

    def ours(game: dict) -> list[int]:
        return [seat for seat in game["to_act"] if seat in tokens]

    for _ in range(1000):
        game = wait_for(client, game_id, lambda g: g["status"] == "finished" or ours(g))
        if game["status"] == "finished":
            return game
        seat = ours(game)[0]
        play_one(client, game_id, seat, tokens[seat], rng)
    raise AssertionError("the game did not end")


def test_a_fixed_deck_game_of_humans_plays_the_rulebook_round_then_to_the_end(client, worker):
    game = create_game(client, "saint_poker", humans(4), {"deck": example_deck()})
    game_id, tokens = game["id"], tokens_of(game)
    assert game["phase"] == "committing" and game["river"] == [card_json("9h")]
    for seat, text in enumerate(EXAMPLE_COMMITS):
        act(client, game_id, tokens[seat], {"type": "commit_river_card", "card": card_json(text)})
    for seat, text in enumerate(EXAMPLE_REVEALS):
        last = act(
            client, game_id, tokens[seat], {"type": "reveal_cards", "cards": cards_json(text)}
        )
    assert last["game"]["phase"] == "scoring" and last["game"]["to_act"] == []

    scored = wait_for(client, game_id, lambda g: g["phase"] == "pickup")  # on the workers

    ranking = scored["ranking"]
    assert ranking["round"] == 1
    assert [(h["seat"], h["place"], h["name"]) for h in ranking["hands"]] == [
        (1, 1, "nine-high straight flush"),
        (2, 2, "king-high flush"),
        (0, 3, "ten-high straight"),
        (3, 4, "nine-high straight"),
    ]
    assert [s["points"] for s in scored["seats"]] == [0, 1, 0, 0]
    assert scored["pickup_order"] == [3, 0, 2, 1] * 2 and scored["to_act"] == [3]

    final = play_until_finished(client, game_id, tokens, random.Random(4))
    assert final["round"] == 8 and final["result"]["winners"]
    events = client.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]
    assert [e["type"] for e in events].count("RoundScored") == 8
    points = [
        sum(e["data"]["points"][s] for e in events if e["type"] == "RoundScored") for s in range(4)
    ]
    assert [s["points"] for s in final["seats"]] == points
    assert {card for _, card in cards_shown(final["deck"])} <= set(EVERY_CARD)  # shown at the end


def test_a_human_plays_by_the_api_while_bots_and_scoring_run_on_the_workers(client, worker):
    seats = [{"kind": "human", "name": "Hana"}] + [{"kind": "bot", "level": "basic"}] * 2
    seats.append({"kind": "bot", "level": "random"})
    game = create_game(client, "saint_poker", seats)
    final = play_until_finished(client, game["id"], tokens_of(game), random.Random(7))
    assert final["status"] == "finished" and final["to_act"] == []
    mine = client.get(f"/games/{game['id']}", headers=auth(tokens_of(game)[0])).get_json()
    assert mine["result"] == final["result"]
    assert sum(s["points"] for s in final["seats"]) >= sum(range(1, 9))  # ties round up


def test_commits_and_reveals_stay_hidden_from_the_others_until_every_seat_has_chosen(client):
    game = create_game(client, "saint_poker", humans(3))  # no worker: it stops at scoring
    game_id, tokens = game["id"], tokens_of(game)
    hands = {
        seat: client.get(f"/games/{game_id}", headers=auth(tokens[seat])).get_json()["you"]["hand"]
        for seat in range(3)
    }
    commits = {seat: hands[seat][0] for seat in range(3)}
    reveals = {seat: hands[seat][1:3] for seat in range(3)}

    for seat in range(2):
        act(client, game_id, tokens[seat], {"type": "commit_river_card", "card": commits[seat]})
        assert_hidden(client, game_id, tokens, {s: [commits[s]] for s in range(seat + 1)})
    mine = client.get(f"/games/{game_id}", headers=auth(tokens[0])).get_json()
    assert mine["you"]["committed_card"] == commits[0]
    assert [s["has_committed"] for s in mine["seats"]] == [True, True, False]

    done = act(client, game_id, tokens[2], {"type": "commit_river_card", "card": commits[2]})
    assert done["game"]["river"][-3:] == [commits[0], commits[1], commits[2]]

    for seat in range(2):
        act(client, game_id, tokens[seat], {"type": "reveal_cards", "cards": reveals[seat]})
        assert_hidden(client, game_id, tokens, {s: reveals[s] for s in range(seat + 1)})
    mine = client.get(f"/games/{game_id}", headers=auth(tokens[1])).get_json()
    assert mine["you"]["chosen_cards"] == reveals[1]

    done = act(client, game_id, tokens[2], {"type": "reveal_cards", "cards": reveals[2]})
    assert done["game"]["revealed"] == [reveals[0], reveals[1], reveals[2]]
    assert done["game"]["phase"] == "scoring"


def assert_hidden(client, game_id: str, tokens: dict[int, str], secret: dict[int, list]) -> None:
    """Each seat's secret cards show to that seat only (its view, the event log, the replay):
    not to the other seats, nor to a spectator."""
    for viewer in (None, 0, 1, 2):
        headers = {} if viewer is None else auth(tokens[viewer])
        view = client.get(f"/games/{game_id}", headers=headers).get_json()
        log = client.get(f"/games/{game_id}/events?limit=1000", headers=headers).get_json()
        replay_url = f"/games/{game_id}/replay?version={view['version']}"
        replay = client.get(replay_url, headers=headers).get_json()
        assert replay == view
        shown = {card for _, card in cards_shown([view, log, replay])}
        for seat, cards in secret.items():
            hidden = {(c["suit"], c["rank"]) for c in cards}
            assert (hidden <= shown) if viewer == seat else not (hidden & shown), (viewer, seat)


# --- the scoring job, run in this process on a private database ----------------------------


@pytest.fixture()
def worker_context(monkeypatch, private_database_url, redis_url):
    """This process's worker context on a private database and a queue of its own."""
    urls = (private_database_url, redis_url)
    with in_process.worker_context(monkeypatch, *urls, "saint-poker-test") as ctx:
        yield ctx


def test_the_scoring_job_is_idempotent(worker_context):
    game_type = get_game_type("saint_poker")
    game_id = uuid.uuid4()
    seats = tuple(tables.SeatInfo(tables.HUMAN, name=f"p{i}") for i in range(2))
    commands = worker_context.cardroom().commands
    commands.create(game_id, game_type, tables.CreateTable(seats, {}))
    for kind in ("commit_river_card", "reveal_cards"):
        for seat in range(2):
            table, _ = loaded(worker_context, game_id)
            hand = table.game.hands[seat]
            chosen = {"card": hand[0]} if kind == "commit_river_card" else {"cards": hand[:2]}
            commands.act(game_id, seat, {"type": kind, **to_json(chosen)})
    table, version = loaded(worker_context, game_id)
    assert game_type.automatic(table.game) == "scoring"

    assert run_work(str(game_id), version, "scoring") == "done"
    table, scored_version = loaded(worker_context, game_id)
    assert table.game.phase == "pickup" and scored_version == version + 1

    assert run_work(str(game_id), version, "scoring") == "stale"  # the same job again
    assert run_work(str(game_id), scored_version, "scoring") == "stale"  # nothing to score
    assert relay_pending() >= 0
    run_jobs(worker_context)  # whatever the relay queued for this game runs too, and adds nothing
    assert loaded(worker_context, game_id)[1] == scored_version
    assert count_of(worker_context, game_id, "RoundScored") == 1
