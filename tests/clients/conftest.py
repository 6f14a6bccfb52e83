"""A live server for the clients' tests: gunicorn as `make run` serves it, a worker process (the
bots, the relay, the webhooks), on this session's database, with a cutting proxy in front where
a test needs to drop a connection."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.conftest import settings, worker  # noqa: F401 - the fixtures, shared
from tests.api.real_server import gunicorn_serving
from tests.clients.cutting_proxy import CuttingProxy

# One address plays many games here: the limits are tested in tests/api/test_limits.py.
SERVER_ENVIRONMENT = {
    "RATE_LIMITS": "off",
    "FANOUT": "embedded",
    "WEB_WORKERS": "2",
    "WEBHOOKS_ALLOW_PRIVATE": "1",  # the tests' receivers listen on 127.0.0.1
}


@pytest.fixture(scope="session")
def server_url(settings, worker) -> Iterator[str]:  # noqa: F811
    with gunicorn_serving(settings, **SERVER_ENVIRONMENT) as served:
        yield f"http://127.0.0.1:{served.port}"


@pytest.fixture()
def proxy(server_url: str) -> Iterator[CuttingProxy]:
    """A proxy on 127.0.0.1 in front of the server, that can cut every connection through it
    or drop the next answer on its way back."""
    port = int(server_url.rsplit(":", 1)[1])
    with CuttingProxy(port) as running:
        yield running
