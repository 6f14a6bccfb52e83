"""A live server for the clients' tests: gunicorn as `make run` serves it and a worker process
(the bots, the relay, the webhooks), on a database, RQ queue and audit key of their own, so
that in a whole run of the suite neither this worker nor tests/api's takes the other's jobs;
and a cutting proxy in front where a test needs to drop a connection."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from events.operations.settings import Settings
from testing.databases import temporary_database
from tests.api.real_server import gunicorn_serving
from tests.clients.cutting_proxy import CuttingProxy
from tests.conftest import SESSION_ID
from tests.service import start_worker, stop_worker

# One address plays many games here: the limits are tested in tests/api/test_limits.py.
SERVER_ENVIRONMENT = {
    "RATE_LIMITS": "off",
    "FANOUT": "embedded",
    "WEB_WORKERS": "2",
    "WEBHOOKS_ALLOW_PRIVATE": "1",  # the tests' receivers listen on 127.0.0.1
}


@pytest.fixture(scope="session")
def clients_settings(redis_url: str, queue_name: str, tmp_path_factory) -> Iterator[Settings]:
    name = f"cardroom_test_{SESSION_ID}_clients"
    with temporary_database(os.environ["DATABASE_URL"], name) as url:
        yield Settings(
            audit_key_file=str(tmp_path_factory.mktemp("client-keys") / "audit-key.pem"),
            database_url=url,
            redis_url=redis_url,
            queue_name=f"{queue_name}-clients",
            log_level="WARNING",
            webhooks_allow_private=True,
            webhook_retry_seconds=0.2,  # retries within a test's patience
            webhook_max_failures=4,
            webhook_deliveries_per_second=100.0,
        )


@pytest.fixture(scope="session")
def server_url(clients_settings: Settings) -> Iterator[str]:
    # The server first: it writes the audit key that the worker then reads.
    with gunicorn_serving(clients_settings, **SERVER_ENVIRONMENT) as served:
        worker = start_worker(clients_settings)
        try:
            yield f"http://127.0.0.1:{served.port}"
        finally:
            stop_worker(worker)


@pytest.fixture()
def proxy(server_url: str) -> Iterator[CuttingProxy]:
    """A proxy on 127.0.0.1 in front of the server, that can cut every connection through it
    or drop the next answer on its way back."""
    port = int(server_url.rsplit(":", 1)[1])
    with CuttingProxy(port) as running:
        yield running
