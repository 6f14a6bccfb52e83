"""The OpenAPI spec and an interactive page for it: Swagger UI 5, served from the installed
`flask-swagger-ui` package's copy of swagger-ui-dist, so `/docs` works without internet and loads
nothing from anywhere else (its Content-Security-Policy says so too)."""

from __future__ import annotations

from importlib.resources import as_file, files

from flask import Blueprint, Response, send_from_directory
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound

from api.web.client import page_headers

bp = Blueprint("docs", __name__)
# Package data: in the source tree a link to the top-level openapi.yaml, in a wheel its copy.
SPEC = files("api") / "openapi.yaml"
SWAGGER_FILES = ("swagger-ui.css", "swagger-ui-bundle.js")
OUR_FILES = ("start.js",)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cardroom API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/start.js"></script>
<noscript>The spec is at <a href="/openapi.yaml">/openapi.yaml</a>.</noscript>
</body></html>"""


@bp.get("/openapi.yaml")
def spec() -> ResponseReturnValue:
    return Response(SPEC.read_text(encoding="utf-8"), mimetype="application/yaml")


@bp.get("/docs")
def docs() -> ResponseReturnValue:
    return page_headers(Response(PAGE, mimetype="text/html"))


@bp.get("/docs/assets/<name>")
def asset(name: str) -> ResponseReturnValue:
    if name in SWAGGER_FILES:
        folder = files("flask_swagger_ui") / "dist"
    elif name in OUR_FILES:
        folder = files("api.web") / "static" / "docs"
    else:
        raise NotFound(f"no file {name!r} here")
    with as_file(folder) as path:
        response = send_from_directory(path, name, max_age=86400)
    return page_headers(response)
