"""The app on this session's database and Redis, with its own queue and a test client that, unlike
tests/api's, does not hold responses to openapi.yaml (GET /metrics is not an API resource)."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from events.operations.settings import Settings
from tests.service import app_settings, client, running_app

__all__ = ["client"]  # a fixture, from tests/service.py


@pytest.fixture(scope="module")
def settings(private_database_url, redis_url, tmp_path_factory) -> Settings:
    # A database of the module's own: a worker another test left running on the shared one
    # would take the outbox rows that the outbox figures are tested with.
    return app_settings(
        private_database_url,
        redis_url,
        tmp_path_factory.mktemp("keys"),
    )


@pytest.fixture(scope="module")
def app(settings):
    yield from running_app(settings)


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of a /metrics page: (name, labels) -> value."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(page: dict, name: str, **labels: str) -> float:
    return page.get((name, frozenset(labels.items())), 0.0)
