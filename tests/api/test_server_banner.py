"""The real server (gunicorn, as `make run` starts it) names no software or version."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import requests

from tests.api.conftest import ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_says_only_cardroom_in_its_server_header(settings):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "AUDIT_KEY_FILE": settings.audit_key_file,
        "LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "gunicorn", "api.wsgi:app", "-b", f"127.0.0.1:{port}"]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        response = None
        for _ in range(100):
            try:
                response = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        assert response is not None and response.status_code == 200
        assert response.headers["Server"] == "cardroom"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    finally:
        server.terminate()
        server.wait(timeout=10)
