"""GET /games/{id}/audit and /export: a finished game of every type proves itself both ways;
an altered event is caught where the chain breaks; an unfinished game exports only a view."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from psycopg.types.json import Jsonb

from domain.games import GAME_TYPES
from domain.selfplay import play_out
from events import store
from events.handler import new_events
from events.verify import verify
from tests.api.play import auth, create_game, humans, tokens_of


def stored_game(app, game_type_id: str, seed: int = 7) -> str:
    """A whole game of bots played by the domain, appended to the store as the service would
    (one transaction, the real hash chain); no outbox rows, so no worker touches it."""
    game_type = GAME_TYPES[game_type_id]
    level = "random" if "random" in game_type.bot_levels else game_type.bot_levels[0]
    table, events = play_out(game_type, [level] * game_type.min_players, random.Random(seed))
    game_id = uuid.uuid4()
    with app.extensions["cardroom"].pool.connection() as conn, conn.transaction():
        store.create_stream(conn, game_id, game_type_id)
        store.append(conn, game_id, 0, new_events(events))
        store.set_stream_status(conn, game_id, table.status)
    return str(game_id)


def verified(text: str) -> tuple[bool, list[str]]:
    said: list[str] = []
    return verify(text, said.append), said


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_finished_game_of_every_type_passes_the_audit_and_its_export_verifies(
    client, game_type_id
):
    game_id = stored_game(client.application, game_type_id)
    report = client.get(f"/games/{game_id}/audit").get_json()
    export = client.get(f"/games/{game_id}/export")
    ok, said = verified(export.get_data(as_text=True))
    assert report["status"] == "finished"
    assert report["state_matches"] and report["chain_ok"] and report["deals_verified"]
    assert report["events_verified"] == report["version"] and report["first_bad_version"] is None
    assert report["deals_checked"] >= 1
    assert export.mimetype == "application/x-ndjson"
    assert ok, said


@contextmanager
def tampered(app, game_id: str, version: int, new_data: str) -> Iterator[None]:
    """One stored event's data replaced by the SQL expression `new_data` (of `data`), and put
    back afterwards: the session's database is shared, and other tests list its games."""
    pool = app.extensions["cardroom"].pool
    where = " WHERE game_id = %s AND version = %s"
    with pool.connection() as conn:
        original = conn.execute("SELECT data FROM events" + where, (game_id, version)).fetchone()
        conn.execute(f"UPDATE events SET data = {new_data}" + where, (game_id, version))
    try:
        yield
    finally:
        with pool.connection() as conn:
            conn.execute(
                "UPDATE events SET data = %s" + where, (Jsonb(original["data"]), game_id, version)
            )


def test_an_event_altered_in_the_database_is_reported_where_the_chain_breaks(client):
    game_id = stored_game(client.application, "trick_and_snipers")
    client.get(f"/games/{game_id}")  # the service now holds the true state
    with client.application.extensions["cardroom"].pool.connection() as conn:
        played = conn.execute(
            "SELECT version FROM events WHERE game_id = %s AND type = 'CardPlayed'"
            " ORDER BY version OFFSET 3 LIMIT 1",
            (game_id,),
        ).fetchone()["version"]
    another_rank = (
        "jsonb_set(data, '{card,rank}', to_jsonb((data->'card'->>'rank')::int %% 10 + 1))"
    )
    with tampered(client.application, game_id, played, another_rank):
        report = client.get(f"/games/{game_id}/audit").get_json()
        ok, said = verified(client.get(f"/games/{game_id}/export").get_data(as_text=True))
    assert not report["chain_ok"] and report["first_bad_version"] == played
    assert not report["state_matches"]
    assert not ok and f"FAIL chain: breaks at version {played}" in said
    assert client.get(f"/games/{game_id}/audit").get_json()["chain_ok"]  # put back


def test_an_event_the_rules_cannot_read_is_reported_by_the_audit_not_a_500(client):
    game_id = stored_game(client.application, "trick_and_snipers")  # never loaded: no cache
    with tampered(client.application, game_id, 10, "'{}'"):
        response = client.get(f"/games/{game_id}/audit")
    report = response.get_json()
    assert response.status_code == 200 and report["fold_error"]
    assert not report["state_matches"] and report["first_bad_version"] == 10


def test_an_unfinished_game_exports_only_the_callers_view(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(game)[0]
    text = client.get(f"/games/{game['id']}/export", headers=auth(token)).get_data(as_text=True)
    header, *events = [json.loads(line) for line in text.splitlines()]
    dealt = {e["data"]["seat"]: e["data"] for e in events if e["type"] == "HandDealt"}
    report = client.get(f"/games/{game['id']}/audit").get_json()
    assert header["complete"] is False and header["viewer"] == 0
    assert "cards" in dealt[0] and "cards" not in dealt[1] and "cards" not in dealt[2]
    assert not any("hash" in event or "prev_hash" in event for event in events)
    assert not any("deck" in e["data"] for e in events if e["type"] == "DeckSealed")
    assert not verified(text)[0]
    assert report["chain_ok"] and report["state_matches"] and report["deals_verified"] is None


def test_audit_and_export_of_an_unknown_game_are_404_and_a_wrong_token_401(client):
    game_id = stored_game(client.application, "trick_and_snipers")
    missing = "00000000-0000-4000-8000-000000000000"
    statuses = [
        client.get(f"/games/{missing}/audit").status_code,
        client.get(f"/games/{missing}/export").status_code,
        client.get(f"/games/{game_id}/audit", headers=auth("wrong")).status_code,
        client.get(f"/games/{game_id}/export", headers=auth("wrong")).status_code,
    ]
    assert statuses == [404, 404, 401, 401]
