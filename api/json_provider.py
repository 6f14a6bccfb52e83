"""JSON for the app: bodies nested too deeply to parse are bad input (a 400), not a crash."""

from __future__ import annotations

from typing import Any

from flask.json.provider import DefaultJSONProvider


class SafeJSONProvider(DefaultJSONProvider):
    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            # Flask reports a ValueError from parsing as a malformed body.
            raise ValueError("the JSON is nested too deeply") from None
