"""GET /metrics through the Flask test client: what one process counts, and who may scrape."""

from __future__ import annotations

import random
import uuid

from api import create_app
from domain.kit.templates import action_from_template
from tests.observability.conftest import samples, value
from tests.service import app_settings

BOTS = [{"kind": "bot", "level": "random"}] * 2
LATENCY = "cardroom_http_request_duration_seconds_count"


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def scrape(client, **headers) -> dict:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.content_type.startswith("text/plain")
    return samples(response.get_data(as_text=True))


def new_table(client, seats: list[dict]) -> dict:
    body = {"type": "trick_and_snipers", "seats": seats, "options": {}}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def act_once(client, game: dict) -> dict:
    token = game["tokens"][0]["token"]
    mine = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()
    action = action_from_template(mine["you"]["legal_actions"][0], random.Random(3))
    response = client.post(f"/games/{game['id']}/actions", json=action, headers=auth(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_latency_is_counted_by_route_template_and_status_never_by_raw_path(client):
    game = new_table(client, [{"kind": "human", "name": "Ada"}, *BOTS])
    before = scrape(client)
    client.get(f"/games/{game['id']}")
    client.get(f"/games/{uuid.uuid4()}")  # unknown: 404
    after_page = client.get("/metrics").get_data(as_text=True)
    after = samples(after_page)
    route = "/games/<game_id>"
    for status in ("200", "404"):
        labels = {"method": "GET", "route": route, "status": status}
        assert value(after, LATENCY, **labels) == value(before, LATENCY, **labels) + 1
    assert game["id"] not in after_page


def test_a_made_up_method_is_counted_as_other_so_methods_cannot_grow_the_series(client):
    before = scrape(client)
    for method in ("BREW", "WHEN", "BREW"):
        client.open("/healthz", method=method)
    page = client.get("/metrics").get_data(as_text=True)
    after = samples(page)
    labels = {"method": "other", "route": "<unmatched>", "status": "405"}
    assert value(after, LATENCY, **labels) == value(before, LATENCY, **labels) + 3
    assert "BREW" not in page and "WHEN" not in page


def test_actions_and_the_events_they_append_are_counted_by_game_type(client):
    game = new_table(client, [{"kind": "human", "name": "Ada"}, *BOTS])
    before = scrape(client)
    answer = act_once(client, game)
    after = scrape(client)
    kind = {"game_type": "trick_and_snipers"}
    assert value(after, "cardroom_actions_total", **kind) == (
        value(before, "cardroom_actions_total", **kind) + 1
    )
    assert value(after, "cardroom_action_events_total", **kind) == (
        value(before, "cardroom_action_events_total", **kind) + len(answer["events"])
    )


def test_a_table_of_bots_with_no_worker_shows_as_outbox_lag(client):
    new_table(client, [{"kind": "bot", "level": "random"}] * 3)
    page = scrape(client)
    assert value(page, "cardroom_outbox_unfinished") >= 1
    assert value(page, "cardroom_outbox_lag_seconds") > 0
    assert ("cardroom_streams_open", frozenset({("viewer", "seat")})) in page


def test_metrics_are_never_rate_limited_and_a_refused_read_is_counted(
    database_url, redis_url, tmp_path
):
    settings = app_settings(
        database_url, redis_url, tmp_path, rate_limit_reads_per_address="2/minute"
    )
    app = create_app(settings)
    try:
        client = app.test_client()
        statuses = [client.get("/games/nowhere").status_code for _ in range(4)]
        assert statuses.count(429) == 2
        pages = [client.get("/metrics") for _ in range(10)]
        assert {page.status_code for page in pages} == {200}
        page = samples(pages[-1].get_data(as_text=True))
        assert value(page, "cardroom_rate_limited_total", limit="reads-per-address") >= 2
    finally:
        app.extensions["cardroom"].pool.close()


def test_with_a_metrics_token_only_its_bearer_may_scrape(database_url, redis_url, tmp_path):
    app = create_app(app_settings(database_url, redis_url, tmp_path, metrics_token="s3cret-9"))
    try:
        client = app.test_client()
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers=auth("wrong")).status_code == 401
        assert client.get("/metrics", headers=auth("s3cret-9")).status_code == 200
    finally:
        app.extensions["cardroom"].pool.close()
