"""`python -m events.audit.verify --database`: every game's hash chain walked in Postgres, a
tampered event reported by game and version, exit status 1 on any break."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest

from tests.observability.test_metrics import act_once, new_table
from tests.service import ROOT, app_settings


def verify_database(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "events.audit.verify", "--database", url],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def settings(private_database_url, redis_url, tmp_path_factory):
    """A database of this module's own: the walk counts every game in it."""
    return app_settings(private_database_url, redis_url, tmp_path_factory.mktemp("keys"))


def test_intact_chains_verify_and_a_tampered_event_is_named_by_game_and_version(client, settings):
    games = [new_table(client, [{"kind": "human", "name": "Ada"}] * 3) for _ in range(3)]
    for game in games:
        act_once(client, game)
    clean = verify_database(settings.database_url)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "OK: 3 games" in clean.stdout and "checking the chains of 3 games" in clean.stderr

    tampered = games[1]["id"]
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE events SET data = jsonb_set(data, '{tampered}', 'true')"
            " WHERE game_id = %s AND version = 3",
            (tampered,),
        )
    broken = verify_database(settings.database_url)
    assert broken.returncode == 1
    assert f"BREAK game {tampered} at version 3" in broken.stdout
    assert "BROKEN: 1 of 3 games" in broken.stdout


def test_a_head_that_does_not_match_its_log_is_a_break(client, settings):
    game = new_table(client, [{"kind": "human", "name": "Ada"}] * 3)
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE streams SET head_hash = repeat('a', 64) WHERE game_id = %s", (game["id"],)
        )
    broken = verify_database(settings.database_url)
    assert broken.returncode == 1 and f"BREAK game {game['id']} at version" in broken.stdout


def test_an_unreachable_database_is_a_usage_failure_not_a_pass():
    done = verify_database("postgresql://nobody@127.0.0.1:1/none")
    assert done.returncode == 2 and "cannot read the database" in done.stderr
