"""A front-end on another origin, checked header by header: the preflight, a cross-origin GET
and an event stream; bodies only as JSON; private answers never cached or sniffed."""

from __future__ import annotations

import dataclasses

import pytest
import requests

from api import create_app
from tests.api.play import auth, create_game, humans, tokens_of
from tests.api.test_event_stream import serving

ORIGIN = "http://localhost:5173"


def allowed(response) -> set[str]:
    raw = response.headers.get("Access-Control-Allow-Headers", "")
    return {name.strip().lower() for name in raw.split(",")}


def test_a_preflight_allows_the_methods_and_headers_a_client_sends(client):
    response = client.options(
        "/games",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert {"authorization", "content-type", "idempotency-key"} <= allowed(response)
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_a_preflight_for_a_stream_resume_allows_last_event_id(client):
    response = client.options(
        "/games/x/events/stream",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "last-event-id, if-none-match",
        },
    )
    assert {"last-event-id", "if-none-match"} <= allowed(response)


def test_a_cross_origin_get_is_allowed_and_exposes_etag_and_retry_after(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    response = client.get(f"/games/{game['id']}", headers={"Origin": ORIGIN})
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert {"ETag", "Retry-After"} <= exposed
    assert (
        client.get("/game-types", headers={"Origin": ORIGIN}).headers["Access-Control-Allow-Origin"]
        == "*"
    )


def test_only_the_configured_origins_are_allowed(settings):
    app = create_app(dataclasses.replace(settings, cors_origins="https://play.example"))
    try:
        client = app.test_client()
        ours = client.get("/game-types", headers={"Origin": "https://play.example"})
        theirs = client.get("/game-types", headers={"Origin": "https://evil.example"})
    finally:
        app.extensions["cardroom"].pool.close()
    assert ours.headers["Access-Control-Allow-Origin"] == "https://play.example"
    assert "Access-Control-Allow-Origin" not in theirs.headers


def test_when_only_some_origins_may_call_an_answer_varies_by_origin(settings):
    app = create_app(dataclasses.replace(settings, cors_origins="https://play.example"))
    try:
        client = app.test_client()
        ours = client.get("/game-types", headers={"Origin": "https://PLAY.example"})
        theirs = client.get("/game-types", headers={"Origin": "https://evil.example"})
    finally:
        app.extensions["cardroom"].pool.close()
    assert ours.headers["Access-Control-Allow-Origin"] == "https://PLAY.example"
    for response in (ours, theirs):
        assert "Origin" in {part.strip() for part in response.headers["Vary"].split(",")}


def test_any_origin_is_one_answer_for_every_page_so_it_varies_not_by_origin(client):
    response = client.get("/game-types", headers={"Origin": ORIGIN})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Origin" not in response.headers.get("Vary", "")


def test_a_preflight_allows_only_the_headers_and_methods_the_api_takes(client):
    asked = {"Origin": ORIGIN, "Access-Control-Request-Headers": "authorization, x-sneaky"}
    post = client.options("/games", headers={**asked, "Access-Control-Request-Method": "POST"})
    delete = client.options("/games", headers={**asked, "Access-Control-Request-Method": "DELETE"})
    assert allowed(post) == {"authorization"}
    assert "Access-Control-Allow-Methods" not in delete.headers
    assert "Access-Control-Allow-Headers" not in delete.headers


def test_an_event_stream_is_readable_from_another_origin(settings):
    with serving(dataclasses.replace(settings, stream_max_seconds=0.2)) as url:
        created = requests.post(
            f"{url}/games",
            json={"type": "trick_and_snipers", "seats": humans(3), "options": {}},
            timeout=10,
        ).json()
        response = requests.get(
            f"{url}/games/{created['id']}/events/stream",
            headers={"Origin": ORIGIN, "Authorization": f"Bearer {tokens_of(created)[0]}"},
            timeout=10,
        )
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "event: TableCreated" in response.text


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_a_body_that_is_not_json_is_415_and_creates_nothing(client, content_type):
    before = client.get("/games?limit=100").get_json()["games"]
    body = '{"type": "trick_and_snipers", "seats": [], "options": {}}'
    response = client.post("/games", data=body, content_type=content_type)
    assert response.status_code == 415
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "unsupported-media-type"
    assert client.get("/games?limit=100").get_json()["games"] == before


def test_json_with_a_charset_is_json(client):
    body = '{"type": "trick_and_snipers", "seats": [{"kind": "open"}], "options": {}}'
    response = client.post("/games", data=body, content_type="application/json; charset=utf-8")
    assert response.status_code == 400  # one seat: read as JSON, refused by the rules


def test_private_answers_are_never_stored_and_nothing_is_sniffed(client):
    created = create_game(client, "trick_and_snipers", humans(3))
    token, game = tokens_of(created)[0], created["id"]
    mine = client.get(f"/games/{game}/events", headers=auth(token))
    public = client.get(f"/games/{game}/replay?version=1")
    create = client.post(
        "/games", json={"type": "trick_and_snipers", "seats": humans(3), "options": {}}
    )
    assert mine.headers["Cache-Control"] == "no-store" == create.headers["Cache-Control"]
    assert public.headers["Cache-Control"] == "no-cache"
    for response in (mine, public, create, client.get("/healthz")):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    for response in (mine, public):
        assert "Authorization" in response.headers["Vary"]
