"""Checking a Flask test response against openapi.yaml: its status is documented for the
operation, its content type is the documented one, its body matches the schema and the
documented required headers are there."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import yaml
from werkzeug.test import TestResponse

from testing.sse import messages

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
PROBLEM = "application/problem+json"


class SpecViolation(AssertionError):
    """A response the spec does not allow."""


@cache
def load_spec() -> dict[str, Any]:
    return yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))


@cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    """Every spec path as a regex; `{name}` matches one path segment, as Flask's converters do."""
    return [
        (re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(path)) + "$"), path)
        for path in load_spec()["paths"]
    ]


def spec_path_for(path: str) -> str | None:
    return next((template for regex, template in _templates() if regex.match(path)), None)


@cache
def _validator(schema_json: str) -> jsonschema_rs.Validator:
    # The schema sits beside the spec's components so that its `#/components/...` refs resolve.
    schema = json.loads(schema_json)
    root = {"components": load_spec()["components"], "allOf": [schema]}
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


def component_validator(name: str) -> jsonschema_rs.Validator:
    """A validator of the spec's `components/schemas/<name>`."""
    return _validator(json.dumps({"$ref": f"#/components/schemas/{name}"}))


def _deref(node: dict[str, Any]) -> dict[str, Any]:
    """A response or header object with its `$ref` (if any) followed."""
    spec = load_spec()
    while "$ref" in node:
        target: Any = spec
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def check_response(method: str, path: str, response: TestResponse) -> None:
    """Raise SpecViolation unless the spec documents this response to `method path`."""
    where = f"{method} {path} -> {response.status_code}"
    template = spec_path_for(path)
    if template is None:
        # Unknown routes are not in the spec; the contract makes them a 404 problem.
        _expect_problem(where, response, 404)
        return
    item = load_spec()["paths"][template]
    operation = item.get(method.lower())
    if operation is None:
        if method.upper() in {"HEAD", "OPTIONS"}:
            return  # answered by Flask itself for every route
        _expect_problem(where, response, 405)
        if "Allow" not in response.headers:
            raise SpecViolation(f"{where}: a 405 without Allow")
        return
    documented = operation["responses"]
    key = str(response.status_code)
    if key not in documented:
        raise SpecViolation(f"{where}: status not documented (only {', '.join(documented)})")
    declared = _deref(documented[key])
    _check_headers(where, declared.get("headers", {}), response)
    content = declared.get("content")
    if not content:
        if response.get_data():
            raise SpecViolation(f"{where}: a body where the spec documents none")
        return
    if response.mimetype not in content:
        raise SpecViolation(f"{where}: content type {response.mimetype!r}, not {list(content)}")
    schema = content[response.mimetype].get("schema")
    if schema is None:
        return
    body: Any = response.get_data(as_text=True)
    if response.mimetype.endswith("json"):
        body = json.loads(body)
    elif response.mimetype.endswith("yaml"):  # as a client parses it (Schemathesis does)
        body = yaml.safe_load(body)
    validator = _validator(json.dumps(schema, sort_keys=True))
    # An event stream's schema describes one message: each message is held to it.
    values = sse_messages(body) if response.mimetype == "text/event-stream" else [body]
    errors = [
        f"{'/'.join(map(str, error.instance_path)) or '(body)'}: {error.message}"
        for value in values
        for error in validator.iter_errors(value)
    ]
    if errors:
        raise SpecViolation(f"{where}: the body does not match the schema:\n" + "\n".join(errors))


def _check_headers(where: str, headers: dict[str, Any], response: TestResponse) -> None:
    for name, header in headers.items():
        header = _deref(header)
        value = response.headers.get(name)
        if value is None:
            if header.get("required"):
                raise SpecViolation(f"{where}: the required header {name} is missing")
            continue
        validator = _validator(json.dumps(header.get("schema", {}), sort_keys=True))
        if not validator.is_valid(value):
            raise SpecViolation(f"{where}: header {name}: {value!r} does not match its schema")


def _expect_problem(where: str, response: TestResponse, status: int) -> None:
    if response.status_code != status or response.mimetype != PROBLEM:
        raise SpecViolation(f"{where} ({response.mimetype}): expected a {status} problem")
    errors = [
        error.message
        for error in _validator('{"$ref": "#/components/schemas/Problem"}').iter_errors(
            response.get_json()
        )
    ]
    if errors:
        raise SpecViolation(f"{where}: not a problem document: {errors}")


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The messages of a Server-Sent Events body that carry data, each as its fields (a field
    given twice keeps its last value, `data` lines are joined); comments are left out."""
    return [m for m in messages(text.split("\n")) if "comment" not in m]
