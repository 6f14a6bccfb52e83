"""Rate limits on the real Redis: over a limit a request is 429 `rate-limited` with Retry-After
and changes nothing; the requests under it, and other clients, are untouched."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from api import create_app
from tests.api.play import auth, create_game, humans, tokens_of, wait_for
from tests.api.test_audit_and_export import stored_game
from tests.service import start_worker, stop_worker


@contextmanager
def app_with(settings, **limits) -> Iterator:
    """An app whose limits count in a Redis namespace of its own."""
    changed = dataclasses.replace(settings, queue_name=f"limits-{uuid.uuid4().hex[:8]}", **limits)
    app = create_app(changed)
    try:
        yield app.test_client()
    finally:
        app.extensions["cardroom"].pool.close()


def assert_rate_limited(response) -> None:
    body = response.get_json()
    assert response.status_code == 429 and body["code"] == "rate-limited"
    assert response.mimetype == "application/problem+json"
    assert int(response.headers["Retry-After"]) == body["retry_after"] >= 1


def first_pass(client, game_id: str, token: str) -> dict:
    mine = client.get(f"/games/{game_id}", headers=auth(token)).get_json()
    template = mine["you"]["legal_actions"][0]
    return {"type": "pass_cards", "cards": template["cards"][: template["count"]]}


def test_reads_over_a_tokens_limit_are_refused_and_other_tokens_are_not(settings):
    with app_with(settings, rate_limit_reads="3/minute") as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        mine, theirs = auth(tokens_of(game)[0]), auth(tokens_of(game)[1])
        statuses = [client.get(f"/games/{game['id']}", headers=mine).status_code for _ in range(3)]
        refused = client.get(f"/games/{game['id']}", headers=mine)
        other = client.get(f"/games/{game['id']}", headers=theirs)
    assert statuses == [200, 200, 200]
    assert_rate_limited(refused)
    assert other.status_code == 200


def test_an_action_over_the_limit_appends_nothing(settings):
    with app_with(settings, rate_limit_actions="1/minute") as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        tokens = tokens_of(game)
        first = client.post(
            f"/games/{game['id']}/actions",
            json=first_pass(client, game["id"], tokens[0]),
            headers=auth(tokens[0]),
        )
        version = client.get(f"/games/{game['id']}").get_json()["version"]
        refused = client.post(
            f"/games/{game['id']}/actions", json={"type": "play_card"}, headers=auth(tokens[0])
        )
        after = client.get(f"/games/{game['id']}").get_json()["version"]
    assert first.status_code == 201
    assert_rate_limited(refused)
    assert after == version


def test_games_created_per_address_are_limited_and_refused_bodies_cost_nothing(settings):
    with app_with(settings, rate_limit_create="2/minute") as client:
        bad = client.post("/games", json={"type": "trick_and_snipers", "seats": []})
        made = [create_game(client, "trick_and_snipers", humans(3)) for _ in range(2)]
        refused = client.post(
            "/games", json={"type": "trick_and_snipers", "seats": humans(3), "options": {}}
        )
    assert bad.status_code == 400 and len(made) == 2
    assert_rate_limited(refused)


def test_tables_of_bots_alone_have_a_smaller_quota_of_their_own(settings):
    bots = [{"kind": "bot", "level": "random"}] * 3
    with app_with(settings, rate_limit_create_bots="1/minute") as client:
        first = client.post("/games", json={"type": "trick_and_snipers", "seats": bots})
        second = client.post("/games", json={"type": "trick_and_snipers", "seats": bots})
        with_a_human = client.post(
            "/games", json={"type": "trick_and_snipers", "seats": [humans(1)[0], *bots[:2]]}
        )
    assert first.status_code == 201
    assert_rate_limited(second)
    assert with_a_human.status_code == 201


def test_rate_limits_off_lets_everything_through(settings):
    with app_with(settings, rate_limits="off", rate_limit_reads="1/minute") as client:
        statuses = {client.get("/game-types").status_code for _ in range(5)}
    assert statuses == {200}


def test_open_streams_are_capped_per_client(settings):
    with app_with(settings, max_streams_per_client=1) as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        url = f"/games/{game['id']}/events/stream"
        first = client.get(url)
        refused = client.get(url)
        first.close()  # the stream ends: its slot is free again
        again = client.get(url)
        again.close()
    assert first.status_code == 200 and again.status_code == 200
    assert_rate_limited(refused)


def test_a_finished_games_audit_is_kept_and_served_again_without_costing_a_costly_read(
    settings,
):
    # Given a finished game, and room for one costly read a minute
    with app_with(settings, rate_limit_costly_reads_per_address="1/minute") as client:
        game_id = stored_game(client.application, "trick_and_snipers")
        # When it is audited three times
        reports = [client.get(f"/games/{game_id}/audit") for _ in range(3)]
    # Then the first re-decides (the one costly read) and the others are its kept report
    assert [r.status_code for r in reports] == [200, 200, 200]
    assert reports[0].get_json() == reports[1].get_json() == reports[2].get_json()
    assert reports[0].get_json()["rules_ok"] and reports[0].get_json()["status"] == "finished"


def test_a_live_games_audit_and_any_export_count_as_costly_reads(settings):
    with app_with(settings, rate_limit_costly_reads_per_address="2/minute") as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        audit = client.get(f"/games/{game['id']}/audit")
        export = client.get(f"/games/{game['id']}/export")
        refused = client.get(f"/games/{game['id']}/audit")
        view = client.get(f"/games/{game['id']}")
    assert audit.status_code == export.status_code == 200
    assert_rate_limited(refused)
    assert view.status_code == 200  # a view costs no costly read


def test_a_wrong_token_on_an_audit_or_export_is_refused_before_any_work(settings):
    # Given room for one costly read, spent by no one yet
    with app_with(settings, rate_limit_costly_reads_per_address="1/minute") as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        stranger = auth("not-a-token-of-this-game-at-all-0000000")
        # When a wrong token asks for the audit and the export
        refused = [client.get(f"/games/{game['id']}/{what}", headers=stranger)
                   for what in ("audit", "export")]  # fmt: skip
        # Then both are 401, and the costly read is still there for a real one
        spectator = client.get(f"/games/{game['id']}/export")
    assert [r.status_code for r in refused] == [401, 401]
    assert spectator.status_code == 200


def test_credentials_that_resolve_to_nothing_count_against_their_address(settings):
    # Given a client sending a fresh random bearer on every request
    with app_with(settings, rate_limit_unresolved_per_address="3/minute") as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        token = tokens_of(game)[0]
        url = f"/games/{game['id']}"
        guesses = [client.get(url, headers=auth(uuid.uuid4().hex)) for _ in range(5)]
        # Then once one is over its address's limit (the fourth), every later request with a
        # credential is 429 before any lookup
        valid_from_there = client.get(url, headers=auth(token))
        spectator = client.get(url)
    assert [r.status_code for r in guesses[:4]] == [401, 401, 401, 401]
    assert_rate_limited(guesses[4])
    assert_rate_limited(valid_from_there)
    assert spectator.status_code == 200  # a request without a credential counts as before


def test_a_stream_ticket_counts_against_its_address_not_a_bucket_of_its_own(settings):
    # A ticket is single-use: a bucket per ticket would be a fresh one on every stream opened
    limits = {"rate_limit_reads": "100/minute", "rate_limit_reads_per_address": "3/minute"}
    with app_with(settings, **limits) as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        stream = f"/games/{game['id']}/events/stream"
        # Given three streams opened with tickets (fresh ones, each unknown: a 401)
        tickets = [client.get(stream, query_string={"ticket": uuid.uuid4().hex}) for _ in range(3)]
        # Then the address has spent its streams' reads, while a seat token's bucket is untouched
        spectator = client.get(stream)
        seated = client.get(stream, headers=auth(tokens_of(game)[0]))
        seated.close()
    assert [r.status_code for r in tickets] == [401, 401, 401]
    assert_rate_limited(spectator)
    assert seated.status_code == 200


def test_a_ticket_that_resolves_to_nothing_counts_as_an_unresolved_credential(settings):
    with app_with(settings, rate_limit_unresolved_per_address="2/minute") as client:
        game = create_game(client, "trick_and_snipers", humans(3))
        stream = f"/games/{game['id']}/events/stream"
        guesses = [client.get(stream, query_string={"ticket": uuid.uuid4().hex}) for _ in range(4)]
        # Then past the address's limit every request with a credential is refused, a token's too
        with_token = client.get(f"/games/{game['id']}", headers=auth(tokens_of(game)[0]))
        spectator = client.get(f"/games/{game['id']}")
    assert [r.status_code for r in guesses[:3]] == [401, 401, 401]
    assert_rate_limited(guesses[3])
    assert_rate_limited(with_token)
    assert spectator.status_code == 200


def one_human_and_bots(client) -> tuple[str, str]:
    seats = [humans(1)[0], *[{"kind": "bot", "level": "random"}] * 2]
    game = create_game(client, "trick_and_snipers", seats)
    return game["id"], tokens_of(game)[0]


def leave(client, game_id: str, token: str):
    return client.post(f"/games/{game_id}/seats/0/leave", headers=auth(token))


def test_a_table_left_to_its_bots_soon_after_creation_counts_as_a_table_of_bots(settings):
    bots = [{"kind": "bot", "level": "random"}] * 3
    with app_with(settings, rate_limit_create_bots="1/minute") as client:
        # Given a table with one human, who leaves at once: the bot-table quota's one table
        first, first_token = one_human_and_bots(client)
        assert leave(client, first, first_token).status_code == 201
        # When another such table's human leaves, or a table of bots alone is asked for
        second, second_token = one_human_and_bots(client)
        refused_leave = leave(client, second, second_token)
        refused_table = client.post("/games", json={"type": "trick_and_snipers", "seats": bots})
        still_seated = client.get(f"/games/{second}").get_json()["seats"][0]["kind"]
    # Then both are refused, and the human is still in the seat
    assert_rate_limited(refused_leave)
    assert_rate_limited(refused_table)
    assert still_seated == "human"


def test_leaving_a_table_played_for_a_while_costs_no_bot_table(settings):
    with app_with(settings, rate_limit_create_bots="1/minute") as client:
        played, token = one_human_and_bots(client)
        pool = client.application.extensions["cardroom"].pool
        with pool.connection() as conn:  # created five minutes ago
            conn.execute(
                "UPDATE streams SET created_at = now() - interval '5 minutes' WHERE game_id = %s",
                (played,),
            )
        left = leave(client, played, token)
        bots = [{"kind": "bot", "level": "random"}] * 3
        made = client.post("/games", json={"type": "trick_and_snipers", "seats": bots})
    assert left.status_code == 201 and made.status_code == 201


def test_players_made_per_address_are_limited(settings):
    with app_with(settings, rate_limit_players="2/hour") as client:
        made = [client.post("/players", json={"name": f"p{i}"}) for i in range(2)]
        refused = client.post("/players", json={"name": "third"})
    assert [r.status_code for r in made] == [201, 201]
    assert_rate_limited(refused)


def test_a_table_whose_last_human_is_timed_out_soon_after_creation_counts_as_a_table_of_bots(
    settings, private_database_url
):
    # A database and queue of its own: another test's worker would time the seat out and
    # count the table in its own buckets
    mine = dataclasses.replace(
        settings,
        database_url=private_database_url,
        queue_name=f"limits-{uuid.uuid4().hex[:8]}",
        rate_limit_create_bots="1/minute",
    )
    worker = start_worker(mine, RATE_LIMIT_CREATE_BOTS=mine.rate_limit_create_bots)
    app = create_app(mine)
    client = app.test_client()
    try:
        # Given a table with one human on a 5 s timer, out at the first timeout, who never acts
        seats = [humans(1)[0], *[{"kind": "bot", "level": "random"}] * 2]
        game = create_game(client, "trick_and_snipers", seats,
                           {"turn_seconds": 5, "max_timeouts": 1})  # fmt: skip
        # When the worker's timer leaves it to its bots alone
        wait_for(client, game["id"], lambda g: g["seats"][0]["kind"] == "bot", timeout=30)
        # Then it was the quota's one table of bots alone: another is refused
        bots = [{"kind": "bot", "level": "random"}] * 3
        refused = client.post("/games", json={"type": "trick_and_snipers", "seats": bots})
    finally:
        app.extensions["cardroom"].pool.close()
        stop_worker(worker)
    assert_rate_limited(refused)
