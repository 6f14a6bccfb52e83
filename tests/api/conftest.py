"""The app on a real migrated database and real Redis, a test client, and a worker process."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from events.operations.settings import Settings
from tests.api.spec import check_response
from tests.service import app_settings, client, running_app, start_worker, stop_worker

__all__ = ["client"]  # a fixture, from tests/service.py


@pytest.fixture(scope="session")
def settings(database_url: str, redis_url: str, queue_name: str, tmp_path_factory) -> Settings:
    return app_settings(
        database_url,
        redis_url,
        tmp_path_factory.mktemp("keys"),
        queue_name=queue_name,
        db_pool_size=8,
        sweep_after_seconds=2.0,
        # The suite audits and exports far more often than a client may, from one address:
        # tests/api/test_limits.py tests these limits at their defaults.
        rate_limit_costly_reads="10000/second",
        # A test that reads every seat between moves reads each token faster than a client
        # would (100 a second at the default) when the machine is quick.
        rate_limit_reads="10000/second",
        rate_limit_costly_reads_per_address="10000/second",
        rate_limit_players="10000/hour",  # the suite makes many players from one address
        # Schemathesis sends made-up credentials by the thousand from one address: it would
        # be refused for them before any check could see a 401.
        rate_limit_unresolved_per_address="100000/second",
        webhooks_allow_private=True,  # the tests' receivers listen on 127.0.0.1
        # Retries within a test's patience, and disabling after a few failures, not 20.
        webhook_retry_seconds=0.2,
        webhook_max_failures=4,
        webhook_deliveries_per_second=100.0,
    )


@pytest.fixture(scope="session")
def app(settings: Settings):
    yield from running_app(settings)


@pytest.fixture(scope="session")
def worker(settings: Settings) -> Iterator[subprocess.Popen]:
    """A worker process on this session's database and queue."""
    process = start_worker(settings)
    yield process
    stop_worker(process)


class SpecCheckingClient(FlaskClient):
    """A test client that holds every response it gets to openapi.yaml."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        request = response.request
        check_response(request.method, request.path, response)
        return response


@pytest.fixture(autouse=True)
def responses_match_the_spec(app) -> Iterator[None]:
    """Every `client` the tests here make checks each response against the spec."""
    app.test_client_class = SpecCheckingClient
    yield
    app.test_client_class = None
