"""GET /games/{id}/audit and /export: a finished game of every type proves itself both ways;
an altered event is caught where the chain breaks, a rehashed forgery where the rules break;
an unfinished game exports only a view; games from before chain format 2 still verify."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from psycopg.types.json import Jsonb

from domain.games import GAME_TYPES
from domain.tables.selfplay import play_out
from events.audit.chain import GENESIS, event_hash, timestamp
from events.audit.signing import public_key_from, signature_is_valid
from events.audit.verify import verify
from events.postgres import store
from events.records import new_events
from tests.api.play import auth, create_game, humans, tokens_of
from tests.events.exports import lines_of, rechained
from tests.events.forgeries import FORGERIES


def stored_game(app, game_type_id: str, seed: int = 7) -> str:
    """A whole game of bots played by the domain, appended to the store as the service would
    (one transaction, the real hash chain); no outbox rows, so no worker touches it."""
    game_type = GAME_TYPES[game_type_id]
    level = "random" if "random" in game_type.bot_levels else game_type.bot_levels[0]
    table, events = play_out(game_type, [level] * game_type.min_players, random.Random(seed))
    game_id = uuid.uuid4()
    services = app.extensions["cardroom"]
    with services.pool.connection() as conn, conn.transaction():
        store.create_stream(conn, game_id, game_type_id)
        store.append(conn, game_id, 0, new_events(events), sign=services.signer.sign)
        store.set_stream_status(conn, game_id, table.status)
    return str(game_id)


def verified(text: str, key: str | None = None) -> tuple[bool, list[str]]:
    said: list[str] = []
    return verify(text, said.append, key=key), said


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_finished_game_of_every_type_passes_the_audit_and_its_export_verifies(
    client, game_type_id
):
    game_id = stored_game(client.application, game_type_id)
    report = client.get(f"/games/{game_id}/audit").get_json()
    export = client.get(f"/games/{game_id}/export")
    key = client.get("/audit-key").get_data(as_text=True)
    ok, said = verified(export.get_data(as_text=True), key=key)
    assert report["status"] == "finished" and report["rules_ok"] and report["signature_ok"]
    assert report["state_matches"] and report["chain_ok"] and report["deals_verified"]
    assert report["events_verified"] == report["version"] and report["first_bad_version"] is None
    assert report["chain_format"] == 2 and report["key_id"] == json.loads(key)["key_id"]
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
    assert response.status_code == 200 and report["rules_problem"].startswith("v10:")
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
    assert report["rules_ok"] and report["signature_ok"] and report["chain_format"] == 2


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


@contextmanager
def forged_in_db(app, game_id: str, lines: list[dict]) -> Iterator[None]:
    """The game's rows rewritten to a forger's records (hashes recomputed, the stream's head
    moved, its signature left: the forger has no key), and put back afterwards."""
    pool = app.extensions["cardroom"].pool
    with pool.connection() as conn, conn.transaction():
        original = conn.execute("SELECT * FROM events WHERE game_id = %s", (game_id,)).fetchall()
        stream = conn.execute("SELECT * FROM streams WHERE game_id = %s", (game_id,)).fetchone()
        _replace_rows(conn, game_id, [_row(game_id, record) for record in lines[1:]])
        conn.execute(
            "UPDATE streams SET version = %s, head_hash = %s WHERE game_id = %s",
            (lines[0]["version"], lines[0]["chain_head"], game_id),
        )
    try:
        yield
    finally:
        with pool.connection() as conn, conn.transaction():
            _replace_rows(conn, game_id, original)
            conn.execute(
                "UPDATE streams SET version = %s, head_hash = %s WHERE game_id = %s",
                (stream["version"], stream["head_hash"], game_id),
            )


def _row(game_id: str, record: dict) -> dict:
    return {
        "game_id": game_id,
        **{k: record[k] for k in ("version", "type", "seat", "data", "visible_to", "nonce")},
        "recorded_at": record["recorded_at"],
        "prev_hash": record["prev_hash"],
        "hash": record["hash"],
    }


def _replace_rows(conn, game_id: str, rows: list[dict]) -> None:
    conn.execute("DELETE FROM events WHERE game_id = %s", (game_id,))
    for row in rows:
        conn.execute(
            "INSERT INTO events (game_id, version, type, seat, data, visible_to, recorded_at,"
            " prev_hash, hash, nonce) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                row["game_id"], row["version"], row["type"], row["seat"], Jsonb(row["data"]),
                row["visible_to"], row["recorded_at"], row["prev_hash"], row["hash"], row["nonce"],
            ),
        )  # fmt: skip


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_forgery_rehashed_in_the_database_fails_the_audit_at_its_version(
    client, game_type_id, forgery
):
    game_id = stored_game(client.application, game_type_id)
    text = client.get(f"/games/{game_id}/export").get_data(as_text=True)
    lines, version = FORGERIES[forgery](lines_of(text))
    forged = lines_of(rechained(lines))
    with forged_in_db(client.application, game_id, forged):
        report = client.get(f"/games/{game_id}/audit").get_json()
    assert report["chain_ok"] and report["chain_head"] == forged[0]["chain_head"]
    assert not report["rules_ok"] and report["rules_first_bad_version"] == version
    assert report["rules_problem"].startswith(f"v{version}:")
    assert report["signature_ok"] is False
    assert client.get(f"/games/{game_id}/audit").get_json()["rules_ok"]  # put back


def test_the_audit_key_verifies_the_heads_the_server_signed(client):
    described = client.get("/audit-key").get_json()
    game_id = stored_game(client.application, "ouroboros_trick")
    report = client.get(f"/games/{game_id}/audit").get_json()
    key = public_key_from(described["public_key_pem"])
    assert described["algorithm"] == "Ed25519"
    assert signature_is_valid(
        key, game_id, report["version"], report["chain_head"], report["head_signature"]
    )
    assert not signature_is_valid(
        key, game_id, report["version"] - 1, report["chain_head"], report["head_signature"]
    )


def legacy_game(app, game_type_id: str, finished: bool) -> str:
    """A game stored before chains carried a format: hashed the format-1 way, no nonces, no
    signature (what the 0003 migration leaves of the games it finds)."""
    game_id = stored_game(app, game_type_id, seed=11)
    pool = app.extensions["cardroom"].pool
    with pool.connection() as conn, conn.transaction():
        rows = conn.execute(
            "SELECT * FROM events WHERE game_id = %s ORDER BY version", (game_id,)
        ).fetchall()
        if not finished:
            rows = rows[: len(rows) // 2]
        prev = GENESIS
        for row in rows:
            record = {
                **{k: row[k] for k in ("version", "type", "seat", "data")},
                "visible_to": row["visible_to"],
                "recorded_at": timestamp(row["recorded_at"]),
                "nonce": None,
            }
            row.update(nonce=None, prev_hash=prev, hash=event_hash(1, game_id, prev, record))
            prev = row["hash"]
        _replace_rows(conn, game_id, rows)
        conn.execute(
            "UPDATE streams SET version = %s, head_hash = %s, head_signature = NULL,"
            " chain_format = 1, status = %s WHERE game_id = %s",
            (len(rows), prev, "finished" if finished else "active", game_id),
        )
    return game_id


def test_a_game_from_before_chain_format_2_still_verifies(client):
    game_id = legacy_game(client.application, "trick_and_snipers", finished=True)
    report = client.get(f"/games/{game_id}/audit").get_json()
    ok, said = verified(client.get(f"/games/{game_id}/export").get_data(as_text=True))
    assert report["chain_format"] == 1 and report["chain_ok"] and report["rules_ok"]
    assert report["head_signature"] is None and report["signature_ok"] is False
    assert ok, said


def test_an_unfinished_game_from_before_nonces_publishes_no_head(client):
    game_id = legacy_game(client.application, "saint_poker", finished=False)
    report = client.get(f"/games/{game_id}/audit").get_json()
    assert report["status"] == "active" and report["chain_ok"] and report["rules_ok"]
    assert report["chain_head"] is None and report["head_signature"] is None
