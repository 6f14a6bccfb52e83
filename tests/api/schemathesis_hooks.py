"""Schemathesis hooks of the conformance run (`hooks` in schemathesis.toml, loaded by `st run`
from the repository root): the string formats of openapi.yaml whose valid values no pattern can
describe, so that a positive (schema-valid) case is also one the server must accept
(tests/api/string_formats.py says how each is generated).

And the seat tokens: there is no credential to configure, since a token exists only once a game
does. The spec's links carry each from the response that shows it (`POST /games`, a join) to the
requests that use it, and `SeatTokens` marks such a token as the case's credential: Schemathesis
takes any `Authorization` it did not set itself for a random one, and would report a 2xx for it
as "API accepts invalid authentication". Marked, the `ignored_auth` check does its real work on
it: the same request without a token, and with a wrong one, must be 401.
"""

from __future__ import annotations

from collections.abc import Mapping

import schemathesis
from schemathesis import AuthContext, Case

from tests.api.string_formats import CURSORS, RATING_CURSORS, SECRET_KEYS, WEBHOOK_URLS

schemathesis.openapi.format("cursor", CURSORS)
schemathesis.openapi.format("rating-cursor", RATING_CURSORS)
schemathesis.openapi.format("secret-key", SECRET_KEYS)
schemathesis.openapi.format("webhook-url", WEBHOOK_URLS)


@schemathesis.auth(refresh_interval=None)  # each case's own token, never one cached
class SeatTokens:
    def get(self, case: Case, ctx: AuthContext) -> str | None:
        # The `Authorization` a link put on the case, if any (a random one is 401 anyway).
        headers = case.headers
        return headers.get("Authorization") if isinstance(headers, Mapping) else None

    def set(self, case: Case, data: str, ctx: AuthContext) -> None:
        case.headers["Authorization"] = data
