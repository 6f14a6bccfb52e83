"""Fair deals through the API: a commitment from POST /seed-commitments, client seeds in the
create and join bodies, the server seed hidden until the end and then checked by /audit, the
export and the offline verifier. Bad input about seeds is a 4xx problem and changes nothing."""

from __future__ import annotations

import hashlib
import random
import uuid

import pytest

from events.audit.export_checks import examine_text
from tests.api.play import action_from, auth, create_game, invites_of, play_to_end, tokens_of

ANN, BOB = "ann's own seed", "bob: 42"


def commitment(client) -> dict:
    response = client.post("/seed-commitments")
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def seats_with_a_joiner() -> list[dict]:
    return [
        {"kind": "human", "name": "ann", "client_seed": ANN},
        {"kind": "open"},
        {"kind": "human", "name": "cy"},  # gives no seed: the server draws one
    ]


def played_keeping_answers(client, game_id: str, tokens: dict[int, str]) -> list[str]:
    """Plays to the end as play_to_end does; returns the text of every answer the game gave
    while it was not over: each acting seat's view and events, the spectator's view, and each
    action's answer but the last."""
    kept, rng = [], random.Random(0)
    while (game := client.get(f"/games/{game_id}")).get_json()["status"] != "finished":
        seat = game.get_json()["to_act"][0]
        mine = client.get(f"/games/{game_id}", headers=auth(tokens[seat]))
        events = client.get(f"/games/{game_id}/events", headers=auth(tokens[seat]))
        action = action_from(rng.choice(mine.get_json()["you"]["legal_actions"]), rng)
        acted = client.post(f"/games/{game_id}/actions", json=action, headers=auth(tokens[seat]))
        assert acted.status_code == 201
        kept += [text.get_data(as_text=True) for text in (game, mine, events)]
        if acted.get_json()["game"]["status"] != "finished":
            kept.append(acted.get_data(as_text=True))
    return kept


def stream_count(client) -> int:
    with client.application.extensions["cardroom"].pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM streams").fetchone()["n"]


def test_a_commitment_is_a_fresh_id_and_the_hash_of_a_secret_seed(client):
    one, two = commitment(client), commitment(client)
    assert one["id"] != two["id"] and one["commitment"] != two["commitment"]
    assert len(one["commitment"]) == 64 and one["expires_at"].endswith("Z")


def test_a_fair_game_hides_the_server_seed_until_it_ends_then_proves_its_deals(client):
    # Given a commitment taken before the table, a seat's seed in the create body and another
    # given when the open seat is taken
    promised = commitment(client)
    options = {"seed_commitment": promised["id"]}
    created = create_game(client, "trick_and_snipers", seats_with_a_joiner(), options)
    game_id, tokens = created["id"], tokens_of(created)
    joined = client.post(
        f"/games/{game_id}/seats/1/join",
        json={"name": "bob", "invite": invites_of(created)[1], "client_seed": BOB},
    )
    assert joined.status_code == 201
    tokens[1] = joined.get_json()["token"]
    seeding = client.get(f"/games/{game_id}").get_json()["seeding"]
    assert seeding["commitment"] == promised["commitment"] and seeding["committed_in_advance"]
    assert seeding["server_seed"] is None
    assert [entry["seed"] for entry in seeding["client_seeds"][:2]] == [ANN, BOB]
    assert seeding["client_seeds"][2]["by"] == "server"
    assert [entry["after_commitment"] for entry in seeding["client_seeds"]] == [True, True, False]
    # When it is played to its end, every answer given while it ran kept
    seen = [
        client.get(f"/games/{game_id}/audit").get_data(as_text=True),
        client.get(f"/games/{game_id}/export", headers=auth(tokens[0])).get_data(as_text=True),
        *played_keeping_answers(client, game_id, tokens),
    ]
    # Then the seed is revealed, is the committed one, and no earlier answer showed it
    server_seed = client.get(f"/games/{game_id}").get_json()["seeding"]["server_seed"]
    assert hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() == promised["commitment"]
    assert not any(server_seed in text for text in seen)
    report = client.get(f"/games/{game_id}/audit").get_json()
    assert report["deals_fair"] is True and report["seeds_verified"] is True
    assert report["rules_ok"] and report["deals_verified"]
    export = client.get(f"/games/{game_id}/export").get_data(as_text=True)
    key = client.get("/audit-key").get_data(as_text=True)
    checked = examine_text(export, key=key)
    assert checked.verdict == "VERIFIED" and checked.deals_fair is True


def test_seeds_given_in_the_body_that_made_the_commitment_never_make_a_table_fair(client):
    seats = [{"kind": "human", "name": f"p{i}", "client_seed": f"seed {i}"} for i in range(3)]
    created = create_game(client, "trick_and_snipers", seats)
    assert created["seeding"]["committed_in_advance"] is False
    play_to_end(client, created["id"], tokens_of(created))
    report = client.get(f"/games/{created['id']}/audit").get_json()
    assert report["seeds_verified"] is True and report["deals_fair"] is False


def test_fixed_test_decks_make_fairness_null(client):
    seats = [{"kind": "human", "name": f"p{i}", "client_seed": f"s{i}"} for i in range(3)]
    cards = [
        {"suit": suit, "rank": rank}
        for suit in ("red", "yellow", "green", "blue")
        for rank in range(1, 13)
        if rank not in (5, 8)  # T1: three players play without the fives and eights
    ]
    options = {"seed_commitment": commitment(client)["id"], "deck": cards}
    created = create_game(client, "trick_and_snipers", seats, options)
    play_to_end(client, created["id"], tokens_of(created))
    report = client.get(f"/games/{created['id']}/audit").get_json()
    assert report["seeds_verified"] is True and report["deals_fair"] is None


def test_a_commitment_serves_one_table_only(client):
    options = {"seed_commitment": commitment(client)["id"]}
    create_game(client, "saint_poker", [{"kind": "bot", "level": "random"}] * 2, options)
    before = stream_count(client)
    again = client.post(
        "/games", json={"type": "saint_poker", "seats": [{"kind": "bot", "level": "random"}] * 2,
                        "options": options},
    )  # fmt: skip
    assert again.status_code == 404 and again.mimetype == "application/problem+json"
    assert again.get_json()["code"] == "not-found" and stream_count(client) == before


def test_an_expired_commitment_is_refused(client):
    promised = commitment(client)
    with client.application.extensions["cardroom"].pool.connection() as conn:
        conn.execute(
            "UPDATE seed_commitments SET expires_at = now() - interval '1 second' WHERE id = %s",
            (promised["id"],),
        )
    body = {"type": "saint_poker", "seats": [{"kind": "human", "name": "ann"}] * 2,
            "options": {"seed_commitment": promised["id"]}}  # fmt: skip
    refused = client.post("/games", json=body)
    assert refused.status_code == 404 and refused.get_json()["code"] == "not-found"


@pytest.mark.parametrize("given", [str(uuid.uuid4()), "not an id", 7, ["x"]])
def test_an_unknown_or_malformed_commitment_creates_nothing(client, given):
    before = stream_count(client)
    body = {"type": "saint_poker", "seats": [{"kind": "human", "name": "ann"}] * 2,
            "options": {"seed_commitment": given}}  # fmt: skip
    refused = client.post("/games", json=body)
    assert refused.status_code == (404 if isinstance(given, str) and "-" in given else 400)
    assert refused.mimetype == "application/problem+json" and stream_count(client) == before


def test_a_table_refused_for_other_reasons_leaves_its_commitment_unused(client):
    promised = commitment(client)
    seats = [{"kind": "human", "name": "ann"}] * 3
    bad = {"type": "trick_and_snipers", "seats": seats,
           "options": {"seed_commitment": promised["id"], "first_leader": 9}}  # fmt: skip
    assert client.post("/games", json=bad).status_code == 400
    good = create_game(client, "trick_and_snipers", seats, {"seed_commitment": promised["id"]})
    assert good["seeding"]["commitment"] == promised["commitment"]


def test_a_retried_creation_gets_its_first_answer_and_uses_the_commitment_once(client):
    options = {"seed_commitment": commitment(client)["id"]}
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    seats = [
        {"kind": "human", "name": "ann", "client_seed": ANN},
        {"kind": "bot", "level": "basic"},
    ]
    first = create_game(client, "saint_poker", seats, options, headers=headers)
    again = create_game(client, "saint_poker", seats, options, headers=headers)
    assert again["id"] == first["id"] and again["seeding"] == first["seeding"]


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "bot", "level": "basic", "client_seed": "bots never give one"},
        {"kind": "open", "client_seed": "an open seat's comes with its player"},
        {"kind": "human", "name": "ann", "client_seed": ""},
        {"kind": "human", "name": "ann", "client_seed": "x" * 65},
        {"kind": "human", "name": "ann", "client_seed": "tab\there"},
        {"kind": "human", "name": "ann", "client_seed": "ünïcode"},
        {"kind": "human", "name": "ann", "client_seed": 42},
    ],
)
def test_a_seed_no_seat_may_give_is_refused_and_changes_nothing(client, seat):
    before = stream_count(client)
    body = {"type": "saint_poker", "seats": [seat, {"kind": "human", "name": "bob"}]}
    refused = client.post("/games", json=body)
    assert refused.status_code == 400 and refused.get_json()["code"] == "validation-error"
    assert stream_count(client) == before


def test_a_joiner_without_a_seed_gets_one_drawn_by_the_server(client):
    created = create_game(
        client, "saint_poker", [{"kind": "human", "name": "ann"}, {"kind": "open"}]
    )
    join = f"/games/{created['id']}/seats/1/join"
    invite = invites_of(created)[1]
    bad = client.post(join, json={"name": "bob", "invite": invite, "client_seed": "\u0000"})
    assert bad.status_code == 400
    assert client.get(f"/games/{created['id']}").get_json()["seats"][1]["kind"] == "open"
    assert client.post(join, json={"name": "bob", "invite": invite}).status_code == 201
    entry = client.get(f"/games/{created['id']}").get_json()["seeding"]["client_seeds"][1]
    assert entry["by"] == "server" and not entry["after_commitment"] and len(entry["seed"]) == 32
