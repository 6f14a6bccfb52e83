"""The reference web client (`/play`) and the landing page (`/`).

The client is static: plain HTML, CSS and ES modules in `api/web/static/play`, using only the public
HTTP API and the event stream. Its Content-Security-Policy allows nothing but this server, so
the page cannot load or send anything elsewhere even if a bug tried to.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from flask import Blueprint, Response, request, send_from_directory
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound

from api.web.guides import guide_named
from domain.games import GAME_TYPES

STATIC = Path(__file__).resolve().parent / "static" / "play"
bp = Blueprint("play", __name__)

# 'self' only: scripts, styles, images, fetch and EventSource stay on this origin.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

LANDING = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cardroom</title></head>
<body>
<h1>Cardroom</h1>
<p>A game-state server for card games: {games}.</p>
<ul>
<li><a href="/play">Play</a> in your browser, against bots or friends.</li>
<li><a href="/docs">The API</a>, browsable (<a href="/openapi.yaml">openapi.yaml</a>).</li>
</ul>
</body></html>"""


def page_headers(response: Response) -> Response:
    """The headers of a page for people (here and /docs): nothing from elsewhere, no referrer."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"  # join links carry invites
    return response


@bp.get("/")
def landing() -> ResponseReturnValue:
    names = [escape(game.name) for game in GAME_TYPES.values()]
    games = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
    return page_headers(Response(LANDING.format(games=games), mimetype="text/html"))


@bp.get("/play")
def play() -> ResponseReturnValue:
    response = send_from_directory(STATIC, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return page_headers(response)


ASSET_TYPES = (".js", ".css")  # what the page loads; the page itself is /play
VIEWS = STATIC / "games"


def view_module(game_id: str) -> str | None:
    """Where the page loads a game's own view module from (`games/<id>.js`: the drawing of its
    table state, its explanations, its chart), or None: the game has none and is drawn from
    GET /game-types alone."""
    return f"/play/assets/games/{game_id}.js" if (VIEWS / f"{game_id}.js").is_file() else None


@bp.get("/play/assets/games/<name>")
def game_view(name: str) -> ResponseReturnValue:
    """A game's own view module (GET /game-types names it as the game's `view`)."""
    if not name.endswith(".js"):
        raise NotFound(f"no module {name!r} here: a game's module is <game>.js")
    response = send_from_directory(VIEWS, name, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return page_headers(response)


@bp.get("/play/assets/<path:name>")
def asset(name: str) -> ResponseReturnValue:
    if not name.endswith(ASSET_TYPES):
        raise NotFound(f"no asset {name!r} here: the client's assets are scripts and styles")
    # send_from_directory refuses paths that leave STATIC (404).
    response = send_from_directory(STATIC, name, max_age=0)
    response.headers["Cache-Control"] = "no-cache"  # revalidated by ETag: cheap, never stale
    return page_headers(response)


@bp.get("/play/guides/<name>")
def guide(name: str) -> ResponseReturnValue:
    """A game's "How to play" guide (from its folder) or the glossary, in Markdown, as the page
    renders it (the same text as docs/rules/guides/, which `make docs` writes)."""
    text = guide_named(name)
    if text is None:
        raise NotFound(f"no guide {name!r} here: the guides are <game>.<language>.md")
    response = Response(text, mimetype="text/markdown")
    response.headers["Cache-Control"] = "no-cache"  # revalidated by ETag: cheap, never stale
    response.add_etag()
    response.make_conditional(request)  # a 304 when the reader's copy is this one
    return page_headers(response)
