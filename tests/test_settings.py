"""Settings come from the environment, each with the one default its field declares."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from events.operations.settings import (
    CONNECTIONS_BEYOND_STREAMS,
    ENVIRONMENT,
    Settings,
    SettingsError,
    load_settings,
)

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_an_empty_environment_gives_the_declared_defaults():
    settings = load_settings({})
    expected_connections = Settings.max_streams + CONNECTIONS_BEYOND_STREAMS
    assert settings == Settings(web_connections=expected_connections)


def test_each_variable_is_read_with_its_fields_type():
    settings = load_settings(
        {"PORT": "9000", "GAMES_ALLOW_FIXED_DECK": "yes", "LOG_LEVEL": "debug",
         "SWEEP_AFTER_SECONDS": "2.5", "MAX_STREAMS": "20", "RQ_QUEUE": " q "}
    )  # fmt: skip
    assert (settings.port, settings.allow_fixed_deck, settings.log_level) == (9000, True, "DEBUG")
    assert (settings.sweep_after_seconds, settings.queue_name) == (2.5, "q")
    assert settings.max_streams == 20
    assert settings.web_connections == 20 + CONNECTIONS_BEYOND_STREAMS  # follows the streams


def test_an_empty_variable_keeps_the_default():
    assert load_settings({"PORT": " ", "MAX_STREAMS": ""}).port == Settings.port


def test_the_readme_lists_every_variable():
    text = README.read_text(encoding="utf-8")
    assert [name for name in ENVIRONMENT if f"`{name}`" not in text] == []


BAD = {
    "PORT": ("abc", "not a whole number"),
    "WEB_WORKERS": ("0", "must be from 1"),
    "STREAM_SEAT_SHARE": ("1.5", "to 0.99"),
    "GAMES_ALLOW_FIXED_DECK": ("maybe", "1/true/yes/on"),
    "LOG_LEVEL": ("loud", "one of"),
    "RATE_LIMITS": ("sometimes", "one of"),
    "SWEEP_AFTER_SECONDS": ("soon", "not a number"),
    "LOG_ORIGIN": ("my log", "no spaces"),
}


@pytest.mark.parametrize("variable", sorted(BAD))
def test_a_value_that_cannot_be_used_is_refused_naming_its_variable(variable):
    raw, reason = BAD[variable]
    with pytest.raises(SettingsError) as refused:
        load_settings({variable: raw})
    assert str(refused.value).startswith(f"{variable}={raw!r}") and reason in str(refused.value)


PROGRAMS = {
    "make run": ["-m", "embedded.run"],
    "the worker": ["-m", "workers"],
    "migrations": ["-m", "events.postgres.migrate"],
    "the API server": [
        "-m",
        "gunicorn",
        "-c",
        "python:api.server.gunicorn_conf",
        "api.server.wsgi:app",
    ],
}


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_every_program_stops_on_a_bad_setting_with_one_line_and_status_2(program):
    env = {**os.environ, "PORT": "abc"}
    run = subprocess.run(
        [sys.executable, *PROGRAMS[program]], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr[-2000:]
    assert "PORT='abc': not a whole number" in run.stderr
    assert "Traceback" not in run.stderr
