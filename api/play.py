"""The reference web client (`/play`) and the landing page (`/`).

The client is static: plain HTML, CSS and ES modules in `api/static/play`, using only the public
HTTP API and the event stream. Its Content-Security-Policy allows nothing but this server, so
the page cannot load or send anything elsewhere even if a bug tried to.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from flask import Blueprint, Response, send_from_directory
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound

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
<p>A game-state server for four card games: St Patrick, Ouroboros Trick, Trick &amp; Snipers
and Saint Poker.</p>
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
    return page_headers(Response(LANDING, mimetype="text/html"))


@bp.get("/play")
def play() -> ResponseReturnValue:
    response = send_from_directory(STATIC, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return page_headers(response)


ASSET_TYPES = (".js", ".css")  # what the page loads; the page itself is /play


@bp.get("/play/assets/<path:name>")
def asset(name: str) -> ResponseReturnValue:
    if not name.endswith(ASSET_TYPES):
        raise NotFound(f"no asset {name!r} here: the client's assets are scripts and styles")
    # send_from_directory refuses paths that leave STATIC (404).
    response = send_from_directory(STATIC, name, max_age=0)
    response.headers["Cache-Control"] = "no-cache"  # revalidated by ETag: cheap, never stale
    return page_headers(response)


GUIDES = STATIC / "guides"


def folder_guide(game_id: str) -> str:
    """The guide of a game with none written here: the one its folder gives (GameType.guide),
    in any language; 404 for a game with none."""
    game = GAME_TYPES.get(game_id)
    if game is None or not game.guide:
        raise NotFound(f"no guide for {game_id!r} here")
    return f"# {game.name}\n\n{inspect.cleandoc(game.guide)}\n"


@bp.get("/play/guides/<name>")
def guide(name: str) -> ResponseReturnValue:
    """A game's "How to play" guide or the glossary, in Markdown, as the page renders it (the
    same files as docs/rules/guides/)."""
    if not name.endswith(".md"):
        raise NotFound(f"no guide {name!r} here: the guides are <game>.<language>.md")
    written = (GUIDES / name).is_file()
    response = (
        send_from_directory(GUIDES, name, max_age=0, mimetype="text/markdown")
        if written
        else Response(folder_guide(name.split(".")[0]), mimetype="text/markdown")
    )
    response.headers["Cache-Control"] = "no-cache"
    return page_headers(response)
