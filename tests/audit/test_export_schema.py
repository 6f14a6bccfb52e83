"""docs/audit/export.schema.json describes every line the server exports: real exports of every
game type, finished or not, are valid, and lines a verifier refuses are not."""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, datetime
from pathlib import Path

import jsonschema_rs
import pytest

from domain.games import GAME_TYPES
from domain.kit.origins import event_origin
from domain.tables.selfplay import bot_table, steps
from domain.tables.view import event_data_for
from events.audit.chain import timestamp
from events.audit.export import viewer_export
from tests.audit.export_schema import schema
from tests.events.exports import export_of, lines_of, seeded_export_of

DOCS = Path(__file__).resolve().parents[2] / "docs" / "audit"
SCHEMA = json.loads((DOCS / "export.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema_rs.validator_for(SCHEMA)


def invalid_lines(text: str) -> list[tuple[int, str]]:
    return [
        (number, next(VALIDATOR.iter_errors(line)).message)
        for number, line in enumerate(lines_of(text), start=1)
        if not VALIDATOR.is_valid(line)
    ]


def test_the_schema_is_a_draft_2020_12_schema_and_the_one_the_code_gives():
    assert jsonschema_rs.meta.is_valid(SCHEMA)
    assert SCHEMA == schema()


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_every_line_of_a_finished_games_export_is_valid(game_type_id):
    assert invalid_lines(export_of(game_type_id)) == []
    assert invalid_lines(seeded_export_of(game_type_id)) == []


def test_every_line_of_the_guides_examples_is_valid():
    assert invalid_lines((DOCS / "example-export.ndjson").read_text("utf-8")) == []
    assert invalid_lines((DOCS / "example-fair.ndjson").read_text("utf-8")) == []


def unfinished_export(game_type_id: str, viewer: int | None) -> str:
    """An export of a game halfway through, as the viewer gets it (a view, not a proof)."""
    game_type = GAME_TYPES[game_type_id]
    table, events = bot_table(game_type, ["random"] * game_type.min_players)
    for step, _ in zip(steps(table, random.Random(1)), range(12), strict=False):
        table, events = step.table, events + step.events
    at = timestamp(datetime(2026, 1, 1, tzinfo=UTC))
    rendered = [  # as api/http/rendering.py `render_event` shows them (without importing the app)
        {
            "version": version,
            "type": type(event).__name__,
            "seat": event.actor(),
            "recorded_at": at,
            "data": event_data_for(event, viewer, table.status == "finished"),
        }
        for version, event in enumerate(events, start=1)
    ]
    return "".join(viewer_export(uuid.UUID(int=1), table, len(events), viewer, rendered))


@pytest.mark.parametrize("viewer", [None, 0])
@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_every_line_of_an_unfinished_games_view_is_valid(game_type_id, viewer):
    text = unfinished_export(game_type_id, viewer)
    assert lines_of(text)[0]["complete"] is False
    assert invalid_lines(text) == []


def test_lines_a_verifier_refuses_are_invalid():
    header, *events = lines_of(export_of("trick_and_snipers"))
    public = next(e for e in events if e["visible_to"] is None)
    played = next(e for e in events if e["type"] == "CardPlayed")
    broken = [
        header | {"extra": 1},
        header | {"complete": False},
        public | {"nonce": "0" * 32},
        public | {"recorded_at": "2026-01-01T00:00:00+00:00"},
        played | {"data": played["data"] | {"card": {"suit": "red", "rank": 1, "joker": True}}},
        played | {"data": {"seat": 0}},
        played | {"type": "CardPlayd"},
    ]
    assert [VALIDATOR.is_valid(line) for line in broken] == [False] * len(broken)


def test_each_event_types_data_names_its_origin_in_its_game():
    for key, definition in SCHEMA["$defs"].items():
        if "x-game" in definition:
            game_id, name = key.split(".")
            assert definition["x-origin"] == event_origin(GAME_TYPES[game_id], name)
