"""Ratings through the API: a rated game's end moves its players' ratings on their profiles
(through the real worker), bot levels are rated players, and GET /leaderboards/{type} pages
the non-provisional ratings, best displayed rating first, ranked, ties shared."""

from __future__ import annotations

import base64
import time
import uuid

import pytest

from domain.tables.rated_tables import BOT_RATERS
from events.postgres import ratings
from events.ratings import PROVISIONAL_GAMES, Rating
from tests.api.play import auth, create_game, wait_for
from tests.api.test_errors import assert_problem
from tests.api.test_players import bot, me, new_player

TYPE = "ouroboros_trick"


def profile_when(client, player_id: str, predicate, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        profile = client.get(f"/players/{player_id}").get_json()
        if predicate(profile):
            return profile
        time.sleep(0.1)
    raise AssertionError(f"the profile never changed: {profile}")


def test_a_player_who_leaves_a_rated_game_sees_a_provisional_rating_fall(client, worker):
    # Given Ada at a rated table of Trick & Snipers with two random bots
    ada = new_player(client, "Ada")
    game = create_game(client, "trick_and_snipers", [me(), bot("random"), bot("random")],
                       {"rated": True}, headers=auth(ada["key"]))  # fmt: skip
    # When she leaves at once, and the basic bot plays her seat to the end
    left = client.post(f"/games/{game['id']}/seats/0/leave", headers=auth(ada["key"]))
    assert left.status_code == 201
    wait_for(client, game["id"], lambda g: g["status"] == "finished")
    # Then her profile shows one rated game, ranked last: below the 25 everyone starts at
    profile = profile_when(client, ada["id"], lambda p: "trick_and_snipers" in p["ratings"])
    rating = profile["ratings"]["trick_and_snipers"]
    assert rating["games"] == 1 and rating["provisional"] is True
    assert rating["rating"] < 25 and rating["uncertainty"] < 25 / 3
    assert rating["display"] == pytest.approx(
        rating["rating"] - 3 * rating["uncertainty"], abs=0.01
    )
    # And the random bot level, a rated player too, gained from it
    random_bot = client.get(f"/players/{BOT_RATERS['random']}").get_json()
    assert random_bot["bot"] == "random" and random_bot["name"] == "Random bot"
    assert random_bot["ratings"]["trick_and_snipers"]["games"] >= 1


def test_an_unrated_game_leaves_the_profile_without_ratings(client, worker):
    ada = new_player(client, "Ada")
    game = create_game(client, "saint_poker", [me(), bot("random")], headers=auth(ada["key"]))
    client.post(f"/games/{game['id']}/seats/0/leave", headers=auth(ada["key"]))
    wait_for(client, game["id"], lambda g: g["status"] == "finished")
    time.sleep(0.5)  # ratings work would have been queued with the end
    assert client.get(f"/players/{ada['id']}").get_json()["ratings"] == {}


def test_no_seat_is_kept_for_a_bot_levels_identity(client):
    ada = new_player(client, "Ada")
    seats = [me(), {"kind": "open", "player": BOT_RATERS["strong"]}, bot()]
    body = {"type": "trick_and_snipers", "seats": seats}
    assert_problem(client.post("/games", json=body, headers=auth(ada["key"])), 400,
                   "validation-error")  # fmt: skip


def rated(app, client, display: float, games: int) -> str:
    """A player whose `TYPE` rating shows `display` after `games` rated games, written as the
    ratings' worker writes it."""
    player = new_player(client, f"D{display:g}")
    sigma = 2.0
    rating = Rating(display + 3 * sigma, sigma, games)
    with app.extensions["cardroom"].pool.connection() as conn, conn.transaction():
        ratings.lock_ratings(conn, TYPE, [player["id"]])
        ratings.save(conn, TYPE, {player["id"]: rating})
    return player["id"]


def leaderboard_pages(client, limit: int) -> list[dict]:
    items, cursor = [], None
    while True:
        query = f"?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"/leaderboards/{TYPE}{query}").get_json()
        assert page["type"] == TYPE
        items += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            return items


def test_the_leaderboard_pages_the_best_displayed_ratings_first_and_ties_share_a_rank(app, client):
    # Given players far above anyone the other tests rate, two of them tied, and a provisional
    # player above them all
    top = [rated(app, client, display, PROVISIONAL_GAMES + 5)
           for display in (1000.0, 990.0, 990.0, 980.0, 970.0)]  # fmt: skip
    newcomer = rated(app, client, 5000.0, PROVISIONAL_GAMES - 1)
    # When the leaderboard is read two by two
    items = leaderboard_pages(client, limit=2)
    # Then it starts with them, best first, ranked, ties sharing a rank, the newcomer absent
    head = items[:5]
    assert [item["display"] for item in head] == [1000.0, 990.0, 990.0, 980.0, 970.0]
    assert [item["rank"] for item in head] == [1, 2, 2, 4, 5]
    assert {item["player_id"] for item in head} == set(top)
    assert newcomer not in {item["player_id"] for item in items}
    assert all(not item["provisional"] and item["games"] >= PROVISIONAL_GAMES for item in items)
    # And the displays never rise along the pages
    displays = [item["display"] for item in items]
    assert displays == sorted(displays, reverse=True)
    # And an entry leads to its player's profile
    profile = client.get(f"/players/{head[0]['player_id']}").get_json()
    assert profile["ratings"][TYPE]["display"] == 1000.0


def test_a_leaderboard_page_starting_in_a_tie_ranks_it_as_the_whole_board_does(app, client):
    for display in (900.0, 890.0, 890.0, 890.0):
        rated(app, client, display, PROVISIONAL_GAMES)
    whole = leaderboard_pages(client, limit=100)
    for limit in (1, 2, 3):
        paged = leaderboard_pages(client, limit=limit)
        assert [(i["player_id"], i["rank"]) for i in paged] == [
            (i["player_id"], i["rank"]) for i in whole
        ]


def test_equal_displays_list_more_rated_games_first_then_the_lower_id_across_pages(app, client):
    # Given four players of one display, with 5, 5, 2 and 1 rated games past provisional
    extra = [2, 5, 1, 5]
    tied = {rated(app, client, 800.0, PROVISIONAL_GAMES + n): n for n in extra}
    # The order stated in docs/players.md: more games first, then the lower id (as text)
    expected = sorted(tied, key=lambda player: (-tied[player], player))
    for limit in (1, 2, 3, 100):
        # When the board is read in pages that break the tie at every place
        items = [i for i in leaderboard_pages(client, limit=limit) if i["player_id"] in tied]
        # Then each read lists them in that order, all at one rank
        assert [i["player_id"] for i in items] == expected, f"pages of {limit}"
        assert [i["games"] for i in items] == [PROVISIONAL_GAMES + n for n in (5, 5, 2, 1)]
        assert len({i["rank"] for i in items}) == 1


def test_a_leaderboard_cursor_of_the_shape_before_ties_were_ordered_is_a_clean_400(client):
    """A cursor given before the board ordered ties by games: display, id, rank, position."""
    old = base64.urlsafe_b64encode(f"800.0|{uuid.uuid4()}|3|3".encode()).decode()
    assert_problem(client.get(f"/leaderboards/{TYPE}?cursor={old}"), 400, "validation-error")


def test_an_unknown_game_type_has_no_leaderboard(client):
    assert_problem(client.get("/leaderboards/chess"), 404, "not-found")


@pytest.mark.parametrize("cursor", ["nope", "bm9wZQ==", "aW5mfDEyMw=="])
def test_a_leaderboard_cursor_is_one_the_server_gave(client, cursor):
    assert_problem(client.get(f"/leaderboards/{TYPE}?cursor={cursor}"), 400, "validation-error")


def test_an_unknown_player_id_has_no_ratings_to_show(client):
    assert_problem(client.get(f"/players/{uuid.uuid4()}"), 404, "not-found")


def test_every_rated_bot_level_is_a_player_with_its_fixed_id(client):
    for level, player_id in BOT_RATERS.items():
        profile = client.get(f"/players/{player_id}").get_json()
        assert profile["id"] == player_id and profile["bot"] == level
