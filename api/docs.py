"""The OpenAPI spec and an interactive page for it."""

from __future__ import annotations

from importlib.resources import files

from flask import Blueprint, Response

bp = Blueprint("docs", __name__)
# Package data: in the source tree a link to the top-level openapi.yaml, in a wheel its copy.
SPEC = files("api") / "openapi.yaml"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cardroom API</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#ui"});</script>
<noscript>The spec is at <a href="/openapi.yaml">/openapi.yaml</a>.</noscript>
</body></html>"""


@bp.get("/openapi.yaml")
def spec():
    return Response(SPEC.read_text(encoding="utf-8"), mimetype="application/yaml")


@bp.get("/docs")
def docs():
    return Response(PAGE, mimetype="text/html")
