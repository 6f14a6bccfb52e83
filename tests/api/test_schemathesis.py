"""Schemathesis against the app in-process: every phase (examples, coverage, fuzzing, stateful)
and every check, on a fixed seed so a failure replays."""

from __future__ import annotations

from dataclasses import replace

import schemathesis
from schemathesis.engine import Status, events
from schemathesis.specs.openapi import unregister_string_format

# The conformance run's hooks: a seat token a link carried is the case's credential, so the
# `ignored_auth` check tests it (no token, a wrong one: 401) instead of taking it for a random
# one and reporting the 201 it earns as "accepts invalid authentication".
from tests.api import schemathesis_hooks  # noqa: F401 - registers the auth
from tests.api.string_formats import CURSORS, SECRET_KEYS

SEED = 20_240_601
MAX_EXAMPLES = 100

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
            # Idempotency keys are generated, so one recurs with another body: a documented
            # 422 `idempotency-key-reused`, a state conflict like a 409 rather than bad data.
            "include-operation-id": ["createGame", "act"],
            "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + ["422"]}},
        },
    ],
}

TESTING_PHASES = {"examples", "coverage", "fuzzing", "stateful"}


def test_the_app_passes_every_schemathesis_check_in_every_phase(app) -> None:
    schemathesis.openapi.format("cursor", CURSORS)
    schemathesis.openapi.format("secret-key", SECRET_KEYS)
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
        unregister_string_format("secret-key")
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
