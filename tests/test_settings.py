"""Settings come from the environment, each with the one default its field declares."""

from __future__ import annotations

from pathlib import Path

from events.settings import CONNECTIONS_BEYOND_STREAMS, ENVIRONMENT, Settings, load_settings

README = Path(__file__).resolve().parents[1] / "README.md"


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
