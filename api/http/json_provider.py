"""JSON for the app: answers written by events/json_text.py (orjson: a view is written in a
fifth of the time json.dumps takes), and bodies nested too deeply to parse are bad input (a
400), not a crash."""

from __future__ import annotations

from typing import Any

from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

from events import json_text


class SafeJSONProvider(DefaultJSONProvider):
    sort_keys = False

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """As Flask's (`jsonify`): compact JSON and a newline, dates and the like written by
        Flask's `default`; in UTF-8 rather than ASCII escapes."""
        body = json_text.dumps(self._prepare_response_obj(args, kwargs), default=self.default)
        # The app's class is Flask's wsgi Response, which takes bytes; the sansio type cannot.
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)  # type: ignore[arg-type]

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            # Flask reports a ValueError from parsing as a malformed body.
            raise ValueError("the JSON is nested too deeply") from None
