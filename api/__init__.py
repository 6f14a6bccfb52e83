"""The HTTP API: a Flask app (`create_app`, in api/app.py) with one blueprint per resource.

Importing this package imports nothing else: gunicorn reads `api.server.gunicorn_conf` in its master
process, and a gevent worker must monkey-patch before psycopg, redis or ssl are first imported.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name in {"create_app", "MAX_BODY_BYTES"}:
        from api import app

        return getattr(app, name)
    raise AttributeError(f"module 'api' has no attribute {name!r}")
