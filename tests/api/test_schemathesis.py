"""Schemathesis against the app in-process: every phase (examples, coverage, fuzzing, stateful)
and every check, on a fixed seed so a failure replays."""

from __future__ import annotations

from dataclasses import replace

import pytest
import schemathesis
from schemathesis.engine import Status, events
from schemathesis.specs.openapi import unregister_string_format
from schemathesis.transport.wsgi import WSGI_TRANSPORT

# The conformance run's hooks: a seat token a link carried is the case's credential, so the
# `ignored_auth` check tests it (no token, a wrong one: 401) instead of taking it for a random
# one and reporting the 201 it earns as "accepts invalid authentication".
from tests.api import schemathesis_hooks  # noqa: F401 - registers the auth
from tests.api.string_formats import CURSORS, RATING_CURSORS, SECRET_KEYS, WEBHOOK_URLS

SEED = 20_240_601
# Per operation: the README's conformance run fuzzes for 360 s; this one keeps within the
# suite's 20 minutes (46 operations).
MAX_EXAMPLES = 50

# What positive_data_acceptance takes as "accepted" by default.
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
# Every built-in check is on (the default); only their expected statuses are adjusted, and why.
CONFIG = {
    "seed": SEED,
    "cache": {"enabled": False},  # no .schemathesis/ state between runs: reproducible
    "generation": {
        "mode": "all",
        "max-examples": MAX_EXAMPLES,
        "deterministic": True,
        "database": "none",
    },
    "phases": {"stateful": {"max-steps": 20}},
    "operations": [
        {
            # A replay of a version the game has not reached is 400: schema-valid, but the
            # bound is the game's current version, which no schema can know.
            "include-operation-id": "replay",
            "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + ["400"]}},
        },
        {
            # The public log's ranges are bounded by each other, which no schema can state:
            # `end` after `start`, `to` at least `from` (else 400, as openapi.yaml says).
            "include-operation-id": "logEntries",
            "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + ["400"]}},
        },
        {
            "include-operation-id": "logConsistencyProof",
            "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + ["400"]}},
        },
        {
            # Idempotency keys are generated, so one recurs with another body: a documented
            # 422 `idempotency-key-reused`, a state conflict like a 409 rather than bad data.
            "include-operation-id": "act",
            "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + ["422"]}},
        },
        {
            # The same, and a creation's key must also look random: the coverage phase builds
            # keys from the schema's bounds alone (`aaaa...`), which no schema can rule out and
            # the server refuses with a 400 (api/http/key_randomness.py).
            "include-operation-id": "createGame",
            "checks": {
                "positive_data_acceptance": {"expected-statuses": ACCEPTED + ["400", "422"]}
            },
        },
    ],
}

TESTING_PHASES = {"examples", "coverage", "fuzzing", "stateful"}
# Settings for a socket, which werkzeug's in-process client takes none of.
SOCKET_SETTINGS = ("max_redirects", "verify", "cert", "proxies")


@pytest.fixture(autouse=True)
def in_process_sends_without_socket_settings(monkeypatch):
    """schemathesis 4.32 drops the socket settings from a WSGI send only when it carries a
    `requests` session. A check that re-sends a request without credentials (`send_probe`, in
    the stateful phase) strips the session but keeps `max_redirects`, which werkzeug then
    refuses: "EnvironBuilder.__init__() got an unexpected keyword argument 'max_redirects'",
    now and then, as the scenarios reach such a check. Every in-process send drops them."""
    send = WSGI_TRANSPORT.send

    def without_socket_settings(case, **kwargs):
        for name in SOCKET_SETTINGS:
            kwargs.pop(name, None)
        return send(case, **kwargs)

    monkeypatch.setattr(WSGI_TRANSPORT, "send", without_socket_settings)


def offline_names(host: str, port: int) -> list[str]:
    """A name table in place of DNS, which a CI machine may lack: the schema's example names a
    host under `.example` (reserved, it never resolves), which registering only looks up. Here
    every name is loopback, which the suite's server allows; a worker looks names up for real,
    so a ping to the example goes nowhere, on any machine."""
    return ["127.0.0.1"]


@pytest.fixture
def names_resolve_offline(app):
    webhooks = app.extensions["cardroom"].webhooks
    resolver = webhooks.resolver
    webhooks.resolver = offline_names
    yield
    webhooks.resolver = resolver


@pytest.mark.usefixtures("names_resolve_offline")
def test_the_app_passes_every_schemathesis_check_in_every_phase(app) -> None:
    schemathesis.openapi.format("cursor", CURSORS)
    schemathesis.openapi.format("rating-cursor", RATING_CURSORS)
    schemathesis.openapi.format("secret-key", SECRET_KEYS)
    schemathesis.openapi.format("webhook-url", WEBHOOK_URLS)
    services = app.extensions["cardroom"]
    settings = services.settings
    # An event stream lasts until its game ends: here each one ends within 0.1 s.
    services.settings = replace(settings, stream_heartbeat_seconds=0.05, stream_max_seconds=0.1)
    try:
        config = schemathesis.Config.from_dict(CONFIG)
        schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app, config=config)
        problems, phases = _run(schema)
    finally:
        services.settings = settings
        unregister_string_format("cursor")
        unregister_string_format("rating-cursor")
        unregister_string_format("secret-key")
        unregister_string_format("webhook-url")
    assert not problems, "\n\n".join(problems)
    # A phase with nothing to do is skipped, which would pass silently.
    ran = {name for name, status in phases.items() if status != Status.SKIP}
    assert TESTING_PHASES <= ran, phases


def _run(schema) -> tuple[list[str], dict[str, Status]]:
    problems: list[str] = []
    phases: dict[str, Status] = {}
    for event in schemathesis.engine.from_schema(schema).execute():
        if isinstance(event, events.NonFatalError):
            problems.append(f"error in {event.label}: {event.value!r}")
        elif isinstance(event, events.FatalError):
            problems.append(f"fatal: {event.exception!r}")
        elif isinstance(event, events.PhaseFinished):
            phases[event.phase.name.value] = event.status
        elif isinstance(event, events.ScenarioFinished):
            problems.extend(_failures(event))
    return problems, phases


def _failures(event: events.ScenarioFinished) -> list[str]:
    """Each failed check with the requests that led to it (curl) and the response."""
    found = []
    for case_id, checks in event.recorder.checks.items():
        for check in checks:
            if check.failure_info is None:
                continue
            failure = check.failure_info.failure
            response = event.recorder.find_response(case_id=case_id)
            said = "" if response is None else f"{response.status_code} {response.text[:300]}"
            found.append(
                f"[{event.phase.value}] {check.name} on {failure.operation}: {failure.title}: "
                f"{failure.message}\n{check.failure_info.code_sample}\n-> {said}"
            )
    return found


def test_an_in_process_send_without_a_session_ignores_the_socket_settings(app) -> None:
    # Given a case sent in-process as a credential-free probe sends one: no session, and the
    # run's socket settings still in its arguments
    schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app)
    case = schema["/game-types"]["GET"].Case()
    # When it is sent
    response = WSGI_TRANSPORT.send(case, app=app, max_redirects=None, verify=True, cert=None)
    # Then the app answers it, rather than werkzeug refusing the settings
    assert response.status_code == 200
