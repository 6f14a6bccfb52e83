"""`python -m events.audit.monitor` against the service itself: gunicorn and a worker as
`make run` starts them, on a database, queue and audit key of their own. Bot games finish,
their leaves go into the log, and the monitor holds; then an operator with the database and the
key rewrites a finished game and re-signs it (caught at its leaf), truncates the log, and
rebuilds it with another history, re-signed by the service's own appender (caught by
consistency)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import psycopg
import pytest

from events.audit.export_checks import examine
from events.audit.log_format import open_checkpoint
from events.audit.signing import load_or_create_signer, public_key_from
from events.operations.settings import Settings
from testing.databases import temporary_database
from tests.api.real_server import gunicorn_serving
from tests.conftest import SESSION_ID
from tests.events.exports import lines_of, rechained, text_of
from tests.service import start_worker, stop_worker

ROOT = Path(__file__).resolve().parents[2]
BOTS = [{"kind": "bot", "level": "random"}] * 3
PATIENCE = 60.0  # seconds for games to finish and reach the log, on a busy machine


@pytest.fixture(scope="module")
def live_settings(redis_url: str, queue_name: str, tmp_path_factory) -> Iterator[Settings]:
    name = f"cardroom_test_{SESSION_ID}_monitor"
    with temporary_database(os.environ["DATABASE_URL"], name) as url:
        yield Settings(
            audit_key_file=str(tmp_path_factory.mktemp("monitor-key") / "audit-key.pem"),
            database_url=url,
            redis_url=redis_url,
            queue_name=f"{queue_name}-monitor",
            log_level="WARNING",
        )


@pytest.fixture(scope="module")
def server(live_settings: Settings) -> Iterator[str]:
    with gunicorn_serving(live_settings, RATE_LIMITS="off", WEB_WORKERS="1") as served:
        worker = start_worker(live_settings)
        try:
            yield f"http://127.0.0.1:{served.port}"
        finally:
            stop_worker(worker)


def finish_games(url: str, count: int) -> list[str]:
    """Tables of bots, played to their end by the worker; their ids."""
    games = []
    for _ in range(count):
        created = httpx.post(
            f"{url}/games",
            json={"type": "trick_and_snipers", "seats": BOTS, "options": {}},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        assert created.status_code == 201, created.text
        games.append(created.json()["id"])
    deadline = time.monotonic() + PATIENCE
    for game in games:
        while httpx.get(f"{url}/games/{game}").json()["status"] != "finished":
            assert time.monotonic() < deadline, f"game {game} did not finish"
            time.sleep(0.2)
    return games


def log_size(url: str) -> int:
    key = public_key_from(httpx.get(f"{url}/audit-key").content)
    return open_checkpoint(httpx.get(f"{url}/log/checkpoint").content, key).size


def wait_for_log(url: str, size: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while log_size(url) < size:
        assert time.monotonic() < deadline, f"the log did not reach {size} leaves"
        time.sleep(0.2)


def finished_and_logged(url: str, count: int) -> list[str]:
    """Games finished, and each in the log (it has an inclusion proof)."""
    games = finish_games(url, count)
    deadline = time.monotonic() + PATIENCE
    for game in games:
        proof = f"{url}/log/proof/inclusion"
        while httpx.get(proof, params={"game": game}).status_code != 200:
            assert time.monotonic() < deadline, f"game {game} did not reach the log"
            time.sleep(0.2)
    return games


def monitor(url: str, state: Path, *extra: str) -> subprocess.CompletedProcess:
    """As an outsider runs it: a fresh process, no database."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    command = [sys.executable, "-m", "events.audit.monitor", url, "--state", str(state), *extra]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def as_operator(settings: Settings) -> psycopg.Connection:
    """A superuser's connection, as the operator has: no trigger stops it."""
    conn = psycopg.connect(settings.database_url, autocommit=True)
    conn.execute("SET session_replication_role = replica")  # user triggers do not fire
    return conn


def test_games_finished_and_logged_are_what_the_monitor_checks(server, tmp_path):
    finished_and_logged(server, 3)
    first = monitor(server, tmp_path / "state")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "consistency: nothing remembered yet, every leaf is new" in first.stdout
    assert first.stdout.splitlines()[-1].startswith("OK: the log is consistent at ")
    finished_and_logged(server, 2)
    again = monitor(server, tmp_path / "state")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "extends the remembered tree of" in again.stdout
    assert "games: each of the 2 new leaves is its game's verified head" in again.stdout
    print(first.stdout, again.stdout, sep="\n")


def test_a_finished_game_rewritten_and_re_signed_by_the_operator_is_caught_at_its_leaf(
    server, live_settings, tmp_path
):
    finished_and_logged(server, 1)
    assert monitor(server, tmp_path / "state").returncode == 0
    (game,) = finished_and_logged(server, 1)
    original = httpx.get(f"{server}/games/{game}/export").text
    forged = forged_from(original, live_settings)
    try:
        rewrite(live_settings, game, forged)
        served = httpx.get(f"{server}/games/{game}/export").content
        assert lines_of(served.decode())[0]["chain_head"] == forged[0]["chain_head"]
        key = httpx.get(f"{server}/audit-key").content
        assert examine(served, key=key).verdict == "NOT VERIFIED"  # its own proof is the old
        stripped = without_its_place(served)
        assert examine(stripped, key=key).verdict == "VERIFIED"  # alone, the rewrite holds
        size = open_checkpoint(monitor_checkpoint(tmp_path), public_key_from(key)).size
        proof = httpx.get(f"{server}/log/proof/inclusion", params={"game": game, "size": size})
        checked = examine(stripped, key, None, monitor_checkpoint(tmp_path), proof.content)
        assert checked.verdict == "NOT VERIFIED"  # against a checkpoint kept elsewhere
        caught = monitor(server, tmp_path / "state")
        assert caught.returncode == 1, caught.stdout
        assert f"(game {game}): the log holds head {lines_of(original)[0]['chain_head']}" in (
            caught.stdout
        )
        assert "the game was rewritten after it went into the log" in caught.stdout
        print(caught.stdout)
    finally:
        rewrite(live_settings, game, lines_of(original))


def test_a_game_rewritten_after_the_monitor_saw_it_is_caught_by_a_recheck(
    server, live_settings, tmp_path
):
    (game,) = finished_and_logged(server, 1)
    assert monitor(server, tmp_path / "state").returncode == 0
    original = httpx.get(f"{server}/games/{game}/export").text
    try:
        rewrite(live_settings, game, forged_from(original, live_settings))
        assert monitor(server, tmp_path / "state").returncode == 0  # nothing new to it
        caught = monitor(server, tmp_path / "state", "--recheck")
        assert caught.returncode == 1, caught.stdout
        assert f"(game {game}): the log holds head {lines_of(original)[0]['chain_head']}" in (
            caught.stdout
        )
    finally:
        rewrite(live_settings, game, lines_of(original))


def forged_from(export: str, settings: Settings) -> list[dict]:
    """The game with one event's time changed (hashed, checked by no rule), re-chained and
    re-signed with the service's own key, as an operator can."""
    lines = lines_of(export)
    later = _moment(lines[5]["recorded_at"]) + timedelta(seconds=1)
    lines[5]["recorded_at"] = later.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return lines_of(rechained(lines, load_or_create_signer(settings.audit_key_file)))


def monitor_checkpoint(tmp_path: Path) -> bytes:
    return (tmp_path / "state" / "checkpoint").read_bytes()


def without_its_place(export: bytes) -> bytes:
    """The export as a cunning operator would serve it: without the log's proof of the old
    head, which gives the rewrite away by itself."""
    head, *events = lines_of(export.decode())
    return text_of([{k: v for k, v in head.items() if k != "log"}, *events]).encode()


def rewrite(settings: Settings, game: str, lines: list[dict]) -> None:
    """The events' times and hashes, and the signed head, as the lines say."""
    head, events = lines[0], lines[1:]
    with as_operator(settings) as conn:
        for event in events:
            conn.execute(
                "UPDATE events SET recorded_at = %s, prev_hash = %s, hash = %s"
                " WHERE game_id = %s AND version = %s",
                (_moment(event["recorded_at"]), event["prev_hash"], event["hash"], game,
                 event["version"]),
            )  # fmt: skip
        conn.execute(
            "UPDATE streams SET head_hash = %s, head_signature = %s WHERE game_id = %s",
            (head["chain_head"], head["head_signature"], game),
        )


def _moment(spelled: str) -> datetime:
    return datetime.fromisoformat(spelled.replace("Z", "+00:00"))


def test_a_truncated_log_is_caught_by_consistency(server, live_settings, tmp_path):
    finished_and_logged(server, 2)
    assert monitor(server, tmp_path / "state").returncode == 0
    size = log_size(server)
    with psycopg.connect(live_settings.database_url) as plain:  # the trigger refuses it
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            plain.execute("DELETE FROM log_leaves")
    with as_operator(live_settings) as conn:
        kept = conn.execute(
            "SELECT coalesce(max(size), 0) FROM log_checkpoints WHERE size < %s", (size,)
        ).fetchone()[0]
        truncate(conn, kept)
    assert log_size(server) == kept
    caught = monitor(server, tmp_path / "state")
    assert caught.returncode == 1
    assert caught.stdout.splitlines()[-1].startswith(
        f"FAIL: split view: the server's signed tree of {kept} leaves does not extend the"
        f" remembered tree of {size} (root "
    )
    assert list((tmp_path / "state").glob("conflicting-checkpoint-*"))
    print(caught.stdout)


def truncate(conn: psycopg.Connection, size: int) -> None:
    """The log cut back to its first `size` leaves, and its signed checkpoint of that size."""
    conn.execute("DELETE FROM log_leaves WHERE index >= %s", (size,))
    conn.execute("DELETE FROM log_subtrees WHERE (index + 1) * (1::bigint << level) > %s", (size,))
    conn.execute("DELETE FROM log_checkpoints WHERE size > %s", (size,))


def test_a_log_rebuilt_with_another_history_and_re_signed_is_caught_by_consistency(
    server, live_settings, tmp_path
):
    finished_and_logged(server, 2)
    assert monitor(server, tmp_path / "state").returncode == 0
    size = log_size(server)
    with as_operator(live_settings) as conn:
        order = [row[0] for row in conn.execute("SELECT game_id FROM log_leaves ORDER BY index")]
        truncate(conn, 0)
        for game in reversed(order):  # the same games, another history: the appender signs it
            conn.execute("INSERT INTO log_pending (game_id) VALUES (%s)", (game,))
    wait_for_log(server, size)
    finished_and_logged(server, 1)  # and it grows on: the service's own consistency proof
    caught = monitor(server, tmp_path / "state")
    assert caught.returncode == 1, caught.stdout
    assert caught.stdout.splitlines()[-1].startswith(
        f"FAIL: split view: the server's signed tree of {size + 1} leaves does not extend the"
        f" remembered tree of {size} (root "
    )
    fresh = monitor(server, tmp_path / "fresh")  # a monitor that never saw the first history
    assert fresh.returncode == 0, fresh.stdout
    print(caught.stdout)
