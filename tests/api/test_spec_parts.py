"""The per-game parts of openapi.yaml are what `make spec` writes from the game registry: the
file in the repo is checked against the generator, and a game registered later gets its own
shapes without a hand edit."""

from __future__ import annotations

import pytest

from api.spec_parts import SPEC, render, spec_for
from domain.games import GAME_TYPES
from tests.fifth_game.high_card import GAME as HIGH_CARD


def test_openapi_yaml_holds_exactly_what_make_spec_writes_from_the_registry() -> None:
    text = SPEC.read_text()
    assert render(text, GAME_TYPES.values()) == text, "openapi.yaml drifted: run make spec"


def test_a_hand_edit_inside_a_generated_part_is_caught_and_undone() -> None:
    text = SPEC.read_text()
    edited = text.replace(
        "      enum: [trick_and_snipers, saint_poker,", "      enum: [saint_poker,"
    )
    assert edited != text
    assert render(edited, GAME_TYPES.values()) == text


def test_a_part_without_its_end_marker_is_refused() -> None:
    text = SPEC.read_text().replace("# <<< make spec: actions\n", "")
    with pytest.raises(ValueError, match="actions"):
        render(text, GAME_TYPES.values())


def test_a_game_registered_later_gets_its_type_shapes_actions_and_origins() -> None:
    schemas = spec_for([*GAME_TYPES.values(), HIGH_CARD])["components"]["schemas"]
    assert "high_card" in schemas["GameTypeId"]["enum"] and "stars" in schemas["Suit"]["enum"]
    create = schemas["CreateHighCard2"]["properties"]
    assert create["type"] == {"const": "high_card"} and create["seats"]["minItems"] == 2
    assert {"$ref": "#/components/schemas/CreateHighCard2"} in schemas["CreateGame"]["oneOf"]
    assert schemas["JoinQueueHighCard"]["properties"]["players"]["items"]["maximum"] == 2
    origins = schemas["Event"]["x-event-origins"]["high_card"]
    assert origins["choice"] == ["SeatJoined", "SeatLeft", "CardPlayed"]
    assert "TrickTaken" in origins["derived"]


def test_the_hand_written_parts_are_left_as_they_are() -> None:
    text = SPEC.read_text()
    written = render(text, [HIGH_CARD])
    outside = text.split("  schemas:\n")[0]
    assert written.startswith(outside) and written.endswith(
        text.split("<<< make spec: event-origins\n")[1]
    )
