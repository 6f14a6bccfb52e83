"""docker/haproxy.cfg is one configuration for both shapes that run it, and what HAProxy answers
itself is the API's own problem+json."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import yaml

from api.server.front_door_pages import PAGES, page_bytes, path_of
from api.server.gunicorn_worker import Refusal, refusal_of
from embedded.front_door import CONFIG
from tests.test_docker import COMPOSE

needs_haproxy = pytest.mark.skipif(shutil.which("haproxy") is None, reason="no haproxy")
MAKE_RUN = {
    "FRONT_BIND": "127.0.0.1:8000",
    "INTERNAL_BIND": "127.0.0.1:8001",
    "PUSHPIN": "127.0.0.1:8002",
    "PUSHPIN_CHECK": "8003",
    "NODE_1": "127.0.0.1:8004",
    "NODE_2": "127.0.0.1:8005",
    "MAXCONN": "11000",
}


def compose_haproxy() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]["haproxy"]


@pytest.mark.parametrize("status", sorted(PAGES))
def test_each_page_the_front_door_serves_is_the_apis_refusal_as_written(status):
    assert path_of(status).read_bytes() == page_bytes(PAGES[status])


def test_every_page_the_configuration_names_exists_and_is_written_here():
    named = re.findall(r"haproxy-errors/(\d+)\.http", CONFIG.read_text())
    assert named and {int(n) for n in named} == set(PAGES)


def test_the_front_doors_431_says_what_the_apis_own_431_says():
    from gunicorn.http.errors import LimitRequestHeaders

    assert PAGES[431] == refusal_of(LimitRequestHeaders("too many"), cfg=None)


def test_the_front_doors_414_says_what_the_apis_own_414_says():
    from gunicorn.http.errors import LimitRequestLine

    refusal = refusal_of(LimitRequestLine(5000, 4094), cfg=None)
    assert isinstance(refusal, Refusal) and PAGES[414] == refusal


@needs_haproxy
@pytest.mark.parametrize("shape", ["make run NODES=2", "docker compose"])
def test_haproxy_accepts_the_configuration_as_each_shape_runs_it(shape):
    if shape == "make run NODES=2":
        variables = MAKE_RUN
    else:
        variables = {k: str(v) for k, v in compose_haproxy()["environment"].items()}
        variables = {k: re.sub(r"\$\{(\w+):-([^}]*)\}", r"\2", v) for k, v in variables.items()}
    env = {**os.environ, **variables}
    checked = subprocess.run(
        ["haproxy", "-c", "-f", str(CONFIG)], env=env, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_compose_publishes_the_front_door_alone():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert [name for name, service in services.items() if "ports" in service] == ["haproxy"]
    assert compose_haproxy()["command"][-1] == "/app/docker/haproxy.cfg"
