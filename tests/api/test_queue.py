"""The matchmaking queue through the API: joining, where a player stands, leaving, one queue per
player, what a join may ask for, the table a matcher pass seats players at (and the bots it
brings after the wait), and the limit on joins per player.

A worker process of the test session may run a matcher of its own on this database: each test
asserts what any matcher's pass leads to, and starts from an empty queue."""

from __future__ import annotations

import time

import pytest

from domain.tables.rated_tables import BOT_RATERS
from tests.api.play import auth
from tests.api.test_errors import assert_problem
from tests.api.test_limits import app_with, assert_rate_limited
from tests.api.test_players import new_player


@pytest.fixture(autouse=True)
def empty_queue(app):
    with app.extensions["cardroom"].pool.connection() as conn:
        conn.execute("DELETE FROM queue_entries")


def join(client, key: str, **body) -> dict:
    response = client.post("/me/queue", json={"type": "st_patrick", **body}, headers=auth(key))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def a_matcher_pass(app) -> None:
    app.extensions["cardroom"].matcher.run_once()


def matched(client, app, key: str, within: float = 10.0) -> dict:
    """The player's match, after passes of this test's matcher. A worker process of the session
    may be passing at the same moment and hold the entries (SKIP LOCKED): then it seats them."""
    deadline = time.monotonic() + within
    while True:
        a_matcher_pass(app)
        match = standing(client, key)["match"]
        if match is not None or time.monotonic() > deadline:
            assert match is not None, "no match was found"
            return match
        time.sleep(0.1)


def standing(client, key: str) -> dict:
    response = client.get("/me/queue", headers=auth(key))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_player_joins_sees_where_it_stands_and_leaves(client):
    # Given a player who joins the St Patrick queue for tables of 3 or 4, bots after 30 s
    ada = new_player(client, "Ada")
    joined = join(client, ada["key"], players=[4, 3], rated=True, bots_after_seconds=30)
    # Then it waits, for what it asked, with its rating and the window it accepts now
    assert joined["status"] == "waiting" and joined["match"] is None
    assert (joined["type"], joined["players"], joined["rated"]) == ("st_patrick", [3, 4], True)
    assert joined["bots_after_seconds"] == 30
    rating = joined["rating"]["rating"]
    assert joined["window"]["low"] < rating < joined["window"]["high"]
    # And a moment later it has waited longer and accepts a wider window
    time.sleep(0.3)
    later = standing(client, ada["key"])
    assert later["waited_seconds"] > joined["waited_seconds"]
    assert later["window"]["high"] - later["window"]["low"] > (
        joined["window"]["high"] - joined["window"]["low"]
    )
    # When it leaves, it is in no queue
    assert client.delete("/me/queue", headers=auth(ada["key"])).status_code == 204
    assert_problem(client.get("/me/queue", headers=auth(ada["key"])), 404, "not-found")
    assert_problem(client.delete("/me/queue", headers=auth(ada["key"])), 404, "not-found")


def test_a_join_names_every_size_of_the_game_when_it_names_none_and_is_rated_by_default(client):
    ada = new_player(client, "Ada")
    joined = join(client, ada["key"], type="saint_poker")
    assert (joined["players"], joined["rated"], joined["bots_after_seconds"]) == (
        [2, 3, 4, 5],
        True,
        None,
    )


def test_a_player_waits_in_one_queue_at_most(client):
    # Given a player waiting for St Patrick
    ada = new_player(client, "Ada")
    first = join(client, ada["key"], players=[3])
    # When it joins another queue
    again = client.post("/me/queue", json={"type": "saint_poker"}, headers=auth(ada["key"]))
    # Then it is refused, and still waits where it did
    assert_problem(again, 409, "already-queued")
    still = standing(client, ada["key"])
    assert (still["type"], still["players"], still["since"]) == ("st_patrick", [3], first["since"])


@pytest.mark.parametrize(
    "body",
    [
        {"type": "st_patrick", "players": [5]},  # St Patrick is for 3 or 4
        {"type": "st_patrick", "players": [2, 3]},
        {"type": "saint_poker", "players": []},
        {"type": "trick_and_snipers", "players": [3, 4, 3, 4]},  # a size named twice
        {"type": "chess"},
        {"players": [3]},
        {"type": "st_patrick", "rated": "yes"},
        {"type": "st_patrick", "rated": 1},
        {"type": "st_patrick", "players": [3.5]},
        {"type": "st_patrick", "bots_after_seconds": -1},
        {"type": "st_patrick", "bots_after_seconds": 3601},
        {"type": "st_patrick", "bots_after_seconds": True},
        {"type": "st_patrick", "colour": "red"},
    ],
)
def test_a_join_that_asks_for_what_cannot_be_is_refused_and_nothing_is_joined(client, body):
    ada = new_player(client, "Ada")
    assert_problem(client.post("/me/queue", json=body, headers=auth(ada["key"])), 400,
                   "validation-error")  # fmt: skip
    assert_problem(client.get("/me/queue", headers=auth(ada["key"])), 404, "not-found")


def test_the_queue_is_a_players_own(client):
    for method in ("get", "post", "delete"):
        response = getattr(client, method)("/me/queue", json={"type": "st_patrick"})
        assert_problem(response, 401, "unauthorized")
    wrong = client.get("/me/queue", headers=auth("pk_" + "x" * 43))
    assert_problem(wrong, 401, "unauthorized")


def test_players_who_wait_together_are_seated_and_find_their_table(client, app):
    # Given three players waiting for a St Patrick table of three
    players = [new_player(client, name) for name in ("Ada", "Bo", "Cy")]
    for player in players:
        join(client, player["key"], players=[3])
    # When a matcher passes
    for player in players:
        matched(client, app, player["key"])
    # Then each is seated at one table, at a seat of its own, and its key acts there
    found = [standing(client, p["key"]) for p in players]
    assert {f["status"] for f in found} == {"matched"}
    games = {f["match"]["game_id"] for f in found}
    assert len(games) == 1
    assert sorted(f["match"]["seat"] for f in found) == [0, 1, 2]
    game_id = games.pop()
    for player, mine in zip(players, found, strict=True):
        view = client.get(f"/games/{game_id}", headers=auth(player["key"])).get_json()
        assert view["you"]["seat"] == mine["match"]["seat"]
        assert view["seats"][mine["match"]["seat"]]["player_id"] == player["id"]
        assert view["status"] == "active" and view["rated"] is True  # rated, as they asked
    # And the table is in each player's inbox
    inbox = client.get("/me/games", headers=auth(players[0]["key"])).get_json()
    assert [item["game_id"] for item in inbox["items"]] == [game_id]


def test_a_player_seated_before_it_could_leave_is_told_where_it_sits(client, app):
    players = [new_player(client, name) for name in ("Ada", "Bo", "Cy")]
    for player in players:
        join(client, player["key"], players=[3])
    where = matched(client, app, players[0]["key"])
    refused = client.delete("/me/queue", headers=auth(players[0]["key"]))
    body = assert_problem(refused, 409, "already-matched")
    assert (body["game_id"], body["seat"]) == (where["game_id"], where["seat"])


def test_joining_again_after_a_match_waits_afresh(client, app):
    players = [new_player(client, name) for name in ("Ada", "Bo", "Cy")]
    for player in players:
        join(client, player["key"], players=[3])
    matched(client, app, players[0]["key"])
    again = join(client, players[0]["key"], type="saint_poker")
    assert again["status"] == "waiting" and again["type"] == "saint_poker"


def test_a_lone_player_waits_until_its_bots_after_then_plays_bots_of_a_fitting_level(client, app):
    # Given a player alone in the queue, who asked for bots after 1 s
    ada = new_player(client, "Ada")
    join(client, ada["key"], type="trick_and_snipers", players=[3, 4], bots_after_seconds=1)
    # When a matcher passes before that
    a_matcher_pass(app)
    # Then it still waits
    assert standing(client, ada["key"])["status"] == "waiting"
    # But once it has waited 1 s, a pass seats it at the smallest table, bots in the other seats
    time.sleep(1.1)
    match = matched(client, app, ada["key"])
    game = client.get(f"/games/{match['game_id']}").get_json()
    assert len(game["seats"]) == 3
    bots = [seat for seat in game["seats"] if seat["kind"] == "bot"]
    assert len(bots) == 2
    # A newcomer's rating is the default, nearest the basic bots' own
    assert {seat["level"] for seat in bots} == {"basic"}
    assert game["seats"][match["seat"]]["player_id"] == ada["id"]


def test_a_player_who_never_asked_for_bots_is_never_seated_with_them(client, app):
    ada = new_player(client, "Ada")
    join(client, ada["key"], players=[3])
    time.sleep(1.1)
    a_matcher_pass(app)
    assert standing(client, ada["key"])["status"] == "waiting"


def test_rated_and_casual_players_are_never_seated_together(client, app):
    players = [new_player(client, name) for name in ("Ada", "Bo", "Cy")]
    join(client, players[0]["key"], players=[3], rated=False)
    for player in players[1:]:
        join(client, player["key"], players=[3])
    a_matcher_pass(app)
    assert {standing(client, p["key"])["status"] for p in players} == {"waiting"}


def test_casual_players_are_seated_at_a_table_that_is_not_rated(client, app):
    players = [new_player(client, name) for name in ("Ada", "Bo", "Cy")]
    for player in players:
        join(client, player["key"], players=[3], rated=False)
    match = matched(client, app, players[0]["key"])
    assert client.get(f"/games/{match['game_id']}").get_json()["rated"] is False


def test_joins_over_a_players_limit_are_refused_and_join_nothing(settings):
    with app_with(settings, rate_limit_queue_joins="2/minute") as client:
        # Given a player whose limit is two joins a minute, and whose refused joins (a body off
        # the schema, a join while waiting) cost nothing
        ada, bo = new_player(client, "Ada"), new_player(client, "Bo")
        key = auth(ada["key"])
        assert client.post("/me/queue", json={"type": "chess"}, headers=key).status_code == 400
        join(client, ada["key"])
        assert client.post("/me/queue", json={"type": "st_patrick"}, headers=key).status_code == 409
        assert client.delete("/me/queue", headers=key).status_code == 204
        join(client, ada["key"])
        assert client.delete("/me/queue", headers=key).status_code == 204
        # When it joins a third time within the minute
        refused = client.post("/me/queue", json={"type": "st_patrick"}, headers=key)
        # Then it is 429 with Retry-After, it waits in no queue, and another player still joins
        assert_rate_limited(refused)
        assert_problem(client.get("/me/queue", headers=key), 404, "not-found")
        join(client, bo["key"])


# Ratings, as the ratings projection keeps them (set here as a game's rating would leave them)


def rate(app, player_id: str, game_type: str, mu: float, games: int = 12) -> None:
    """The player's stored rating at the game type, as rated games would have left it."""
    with app.extensions["cardroom"].pool.connection() as conn:
        conn.execute(
            "INSERT INTO ratings (player_id, game_type, mu, sigma, games, display, provisional)"
            " VALUES (%s, %s, %s, 2.0, %s, %s, %s) ON CONFLICT (player_id, game_type)"
            " DO UPDATE SET mu = excluded.mu, sigma = 2.0, games = excluded.games,"
            " display = excluded.display, provisional = excluded.provisional",
            (player_id, game_type, mu, games, mu - 6.0, games < 10),
        )


def forget_bot_ratings(app, game_type: str) -> None:
    with app.extensions["cardroom"].pool.connection() as conn:
        conn.execute(
            "DELETE FROM ratings WHERE game_type = %s AND player_id = ANY(%s)",
            (game_type, list(BOT_RATERS.values())),
        )


def test_a_waiting_player_sees_its_stored_rating_and_the_window_around_it(client, app):
    ada = new_player(client, "Ada")
    rate(app, ada["id"], "saint_poker", 31.5)
    joined = join(client, ada["key"], type="saint_poker")
    assert joined["rating"] == {"rating": 31.5, "uncertainty": 2.0}
    assert joined["window"]["low"] < 31.5 < joined["window"]["high"]


def test_a_join_answers_with_the_rating_of_its_own_game_type_only(client, app):
    # Given a player rated at Saint Poker alone
    ada = new_player(client, "Ada")
    rate(app, ada["id"], "saint_poker", 31.5)
    # When it joins St Patrick's queue
    joined = join(client, ada["key"], type="st_patrick")
    # Then it waits there as a newcomer, and sees the same when it asks
    newcomer = {"rating": 25.0, "uncertainty": 8.333}
    assert joined["rating"] == newcomer
    assert standing(client, ada["key"])["rating"] == newcomer


def test_players_far_apart_in_rating_are_not_seated_together_at_once(client, app):
    # Given two strong players and a weak one, all just joined for a table of three
    players = [new_player(client, name) for name in ("Ada", "Bo", "Cy")]
    for player, mu in zip(players, (40.0, 40.5, 12.0), strict=True):
        rate(app, player["id"], "trick_and_snipers", mu)
        join(client, player["key"], type="trick_and_snipers", players=[3])
    # When a matcher passes
    a_matcher_pass(app)
    # Then no table is made: the weak player is far outside their windows yet
    assert {standing(client, p["key"])["status"] for p in players} == {"waiting"}
    # But a third strong player makes a table of the three strong ones
    dan = new_player(client, "Dan")
    rate(app, dan["id"], "trick_and_snipers", 39.0)
    join(client, dan["key"], type="trick_and_snipers", players=[3])
    for player in (players[0], players[1], dan):
        matched(client, app, player["key"])
    seated = {
        p["name"] for p in (*players, dan) if standing(client, p["key"])["status"] == "matched"
    }
    assert seated == {"Ada", "Bo", "Dan"}


@pytest.mark.parametrize(("mu", "level"), [(35.0, "strong"), (15.0, "random")])
def test_bots_that_fill_a_table_are_of_the_level_nearest_the_players_rating(client, app, mu, level):
    # Given the bot levels without enough rated games yet (they stand at their anchors)
    forget_bot_ratings(app, "ouroboros_trick")
    ada = new_player(client, "Ada")
    rate(app, ada["id"], "ouroboros_trick", mu)
    # When the player, alone, has waited as long as it asked
    join(client, ada["key"], type="ouroboros_trick", players=[3], bots_after_seconds=0)
    match = matched(client, app, ada["key"])
    # Then its bots are of the level nearest its rating
    game = client.get(f"/games/{match['game_id']}").get_json()
    assert {s["level"] for s in game["seats"] if s["kind"] == "bot"} == {level}


def test_bot_levels_with_settled_ratings_are_placed_by_them(client, app):
    # Given bot levels whose ratings are settled, the basic level rated highest
    for bot_level, mu in (("random", 20.0), ("basic", 41.0), ("strong", 33.0)):
        rate(app, BOT_RATERS[bot_level], "st_patrick", mu)
    ada = new_player(client, "Ada")
    rate(app, ada["id"], "st_patrick", 40.0)
    join(client, ada["key"], players=[3], bots_after_seconds=0)
    match = matched(client, app, ada["key"])
    game = client.get(f"/games/{match['game_id']}").get_json()
    assert {s["level"] for s in game["seats"] if s["kind"] == "bot"} == {"basic"}
