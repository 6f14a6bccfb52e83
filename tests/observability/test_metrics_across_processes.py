"""GET /metrics on a real gunicorn with two workers and a real `python -m workers` sharing one
PROMETHEUS_MULTIPROC_DIR, as `make run` and Docker run them: every process's counts add up."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from prometheus_client.mmap_dict import MmapedDict

from tests.api.real_server import gunicorn_serving
from tests.observability.conftest import samples, value
from tests.service import app_settings, start_worker, stop_worker

LATENCY = "cardroom_http_request_duration_seconds_count"
HEALTHZ = {"method": "GET", "route": "/healthz", "status": "200"}


@pytest.fixture()
def settings(private_database_url, redis_url, tmp_path):
    """A database of this module's own: the worker's relay takes every outbox row it finds."""
    return app_settings(private_database_url, redis_url, tmp_path, log_level="WARNING")


def healthz_counts_per_process(directory: Path) -> dict[str, float]:
    """What each process's own file holds for GET /healthz, by file name."""
    counts = {}
    for path in directory.glob("histogram_*.db"):
        for key, count, *_ in MmapedDict.read_all_values_from_file(str(path)):
            if '"/healthz"' in key and "_bucket" in key:  # a file keeps buckets, no count
                counts[path.name] = counts.get(path.name, 0) + count
    return counts


def workers_of(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


@contextmanager
def paused(pid: int) -> Iterator[None]:
    """The process stops taking connections (SIGSTOP): the other worker gets them all."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def test_the_counts_of_both_gunicorn_workers_add_up(settings, tmp_path):
    directory = tmp_path / "metrics"
    with gunicorn_serving(
        settings, WEB_WORKERS="2", PROMETHEUS_MULTIPROC_DIR=str(directory)
    ) as served:
        base = f"http://127.0.0.1:{served.port}"
        first, second = workers_of(served.process.pid)
        before = healthz_counts_per_process(directory)  # the server's check that it is up
        with paused(second):  # 7 answered by the first worker
            assert {requests.get(f"{base}/healthz", timeout=5).status_code for _ in range(7)} == {
                200
            }
        with paused(first):  # 5 by the second, which serves this scrape too
            assert {requests.get(f"{base}/healthz", timeout=5).status_code for _ in range(5)} == {
                200
            }
            page = samples(requests.get(f"{base}/metrics", timeout=5).text)
        per_process = healthz_counts_per_process(directory)
    served_here = {name: n - before.get(name, 0) for name, n in per_process.items()}
    assert sorted(served_here.values()) == [5, 7]
    assert value(page, LATENCY, **HEALTHZ) == sum(before.values()) + 12


def test_a_job_run_by_a_real_worker_shows_in_the_job_latency(settings, tmp_path):
    directory = tmp_path / "metrics"
    shared = {"PROMETHEUS_MULTIPROC_DIR": str(directory)}
    worker = start_worker(settings, **shared)
    try:
        with gunicorn_serving(settings, WEB_WORKERS="2", **shared) as served:
            base = f"http://127.0.0.1:{served.port}"
            seats = [{"kind": "bot", "level": "random"}] * 3
            body = {"type": "trick_and_snipers", "seats": seats, "options": {}}
            created = requests.post(f"{base}/games", json=body, timeout=5)
            assert created.status_code == 201, created.text
            game = created.json()["id"]
            deadline = time.monotonic() + 60
            while requests.get(f"{base}/games/{game}", timeout=5).json()["version"] < 20:
                assert time.monotonic() < deadline, "the bots did not play"
                time.sleep(0.2)
            ready = requests.get(f"{base}/readyz", timeout=5).json()
            stop_worker(worker)  # its figures are final: none is half-counted when scraped
            page = samples(requests.get(f"{base}/metrics", timeout=5).text)
    finally:
        stop_worker(worker)
    jobs = value(page, "cardroom_jobs_total", kind="bot", outcome="done")
    assert jobs >= 10
    assert value(page, "cardroom_job_latency_seconds_count", kind="bot") == jobs
    assert 0 < value(page, "cardroom_job_latency_seconds_sum", kind="bot") < 60 * jobs
    assert value(page, "cardroom_job_failures_total", kind="bot") == 0
    assert ready["workers"]["alive"] == 1
    assert ready["workers"]["status"] == "ok" and ready["degraded"] == []
    assert ready["workers"]["last_heartbeat_seconds"] < 30
