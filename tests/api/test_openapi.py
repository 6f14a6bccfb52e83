"""The served spec is OpenAPI 3.1 and documents exactly the routes the app serves."""

from __future__ import annotations

import re

import pytest
import yaml

from api.resources.games.tables import SEED_COMMITMENT
from domain.games import GAME_TYPES
from domain.tables.presence import TABLE_OPTIONS
from tests.api.spec import SpecViolation, check_response, load_spec

# Flask answers these for every route itself; the spec documents the methods the views serve.
IMPLICIT_METHODS = {"HEAD", "OPTIONS"}


def _shape(path: str) -> str:
    """A path with its parameters blanked: Flask's `<int:seat>` and the spec's `{seat}` agree."""
    return re.sub(r"<[^>]+>|\{[^}]+\}", "{}", path)


def test_the_served_spec_is_openapi_3_1_and_the_file_in_the_repo(client) -> None:
    response = client.get("/openapi.yaml")
    assert response.status_code == 200 and response.mimetype == "application/yaml"
    served = yaml.safe_load(response.get_data(as_text=True))
    assert served["openapi"].startswith("3.1.")
    assert served == load_spec()


def test_every_route_of_the_app_is_in_the_spec_and_every_spec_path_is_served(app) -> None:
    served = {
        (_shape(rule.rule), method)
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods - IMPLICIT_METHODS
    }
    documented = {
        (_shape(path), method.upper())
        for path, item in load_spec()["paths"].items()
        for method in item
        if method in {"get", "put", "post", "delete", "patch"}
    }
    assert served == documented


def test_every_operation_has_an_id_and_every_link_names_one(client) -> None:
    spec = load_spec()
    operations = [
        operation
        for item in spec["paths"].values()
        for key, operation in item.items()
        if key != "parameters"
    ]
    ids = {operation["operationId"] for operation in operations}
    assert len(ids) == len(operations)
    linked = {
        link["operationId"]
        for operation in operations
        for response in operation["responses"].values()
        for link in response.get("links", {}).values()
    }
    assert linked <= ids


def test_the_spec_check_refuses_an_undocumented_status_or_a_body_off_the_schema(app) -> None:
    with app.test_request_context():
        wrong_status = app.response_class('{"status": "ok"}', 201, mimetype="application/json")
        wrong_body = app.response_class('{"status": 1}', 200, mimetype="application/json")
    for response in (wrong_status, wrong_body):
        with pytest.raises(SpecViolation):
            check_response("GET", "/healthz", response)


def _schemas() -> dict:
    return load_spec()["components"]["schemas"]


def test_the_spec_names_every_game_type_and_action_the_server_offers() -> None:
    schemas = _schemas()
    assert set(schemas["GameTypeId"]["enum"]) == set(GAME_TYPES)
    actions = {variant["properties"]["type"]["const"] for variant in schemas["Action"]["oneOf"]}
    assert actions == {action for game in GAME_TYPES.values() for action in game.action_types}


def test_the_create_body_has_one_shape_per_game_type_and_table_size_with_its_options() -> None:
    schemas = _schemas()
    shapes = [schemas[ref["$ref"].rsplit("/", 1)[-1]] for ref in schemas["CreateGame"]["oneOf"]]
    documented = {
        (
            shape["properties"]["type"]["const"],
            shape["properties"]["seats"]["minItems"],
            frozenset(shape["properties"]["options"].get("properties", {})),
        )
        for shape in shapes
    }
    offered = {
        (game.id, players, frozenset(game.options) | frozenset(TABLE_OPTIONS) | {SEED_COMMITMENT})
        for game in GAME_TYPES.values()
        for players in range(game.min_players, game.max_players + 1)
    }
    assert documented == offered


def test_the_spec_marks_every_event_type_of_every_game_with_its_origin() -> None:
    from domain.kit.origins import event_origin
    from domain.tables.table import TABLE_EVENTS

    marked = load_spec()["components"]["schemas"]["Event"]["x-event-origins"]
    assert set(marked) == set(GAME_TYPES)
    for game_id, origins in marked.items():
        game_type = GAME_TYPES[game_id]
        names = set(TABLE_EVENTS) | set(game_type.events)
        listed = [name for names_of_origin in origins.values() for name in names_of_origin]
        assert sorted(listed) == sorted(names), game_id
        for origin, of_origin in origins.items():
            assert {event_origin(game_type, name) for name in of_origin} == {origin}
