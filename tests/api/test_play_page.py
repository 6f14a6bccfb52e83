"""The pages for people: `/` leads to the web client and the docs, and the client is served
from the package with a policy that keeps it on this server."""

from __future__ import annotations

import re

from api.play import STATIC


def test_the_landing_page_leads_a_person_to_play_and_to_the_docs(client) -> None:
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    links = re.findall(r'href="([^"]+)"', response.get_data(as_text=True))
    assert "/play" in links and "/docs" in links


def test_the_client_page_may_load_and_call_nothing_but_this_server(client) -> None:
    response = client.get("/play")
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert "unsafe-inline" not in policy and "http" not in policy


def test_every_file_the_page_references_is_served_with_its_type(client) -> None:
    page = client.get("/play").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/play/assets/[^"]+)"', page)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for path in assets:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype in {"text/javascript", "text/css"}, path


def test_every_module_a_script_imports_exists_and_is_served(client) -> None:
    for script in STATIC.glob("*.js"):
        for name in re.findall(r'from "\./([\w.]+)"', script.read_text(encoding="utf-8")):
            assert client.get(f"/play/assets/{name}").status_code == 200, (script.name, name)


def test_no_script_refers_to_another_origin(client) -> None:
    for path in STATIC.rglob("*"):
        if path.suffix in {".js", ".css", ".html"}:
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path.name


def test_a_path_outside_the_client_is_a_problem_not_a_file(client) -> None:
    outside = ("/play/assets/../play.py", "/play/assets/%2e%2e/__init__.py")
    not_assets = ("/play/assets/nope.js", "/play/assets/index.html")  # the page is /play
    for path in (*outside, *not_assets):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.mimetype == "application/problem+json", path


def test_the_docs_page_loads_swagger_ui_from_this_server_only(client) -> None:
    response = client.get("/docs")
    assert (
        response.status_code == 200
        and "default-src 'self'" in response.headers["Content-Security-Policy"]
    )
    page = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert not [a for a in assets if "//" in a], assets  # no other origin, not even a CDN
    for path in (a for a in assets if a.startswith("/docs/assets/")):
        asset = client.get(path)
        assert asset.status_code == 200 and asset.content_length > 0, path
    assert client.get("/docs/assets/index.html").status_code == 404
