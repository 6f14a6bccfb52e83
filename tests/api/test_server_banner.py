"""The real server (gunicorn, as `make run` starts it) names no software or version."""

from __future__ import annotations

import requests

from tests.api.real_server import gunicorn_serving


def test_gunicorn_says_only_cardroom_in_its_server_header(settings):
    with gunicorn_serving(settings) as served:
        response = requests.get(f"http://{served.host}:{served.port}/healthz", timeout=2)
    assert response.status_code == 200
    assert response.headers["Server"] == "cardroom"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
