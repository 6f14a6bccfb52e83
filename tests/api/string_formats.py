"""Valid values of openapi.yaml's string formats that no pattern can describe, for Schemathesis
(both the in-suite run and the conformance run's hooks): a positive case must be one the
server accepts.

- `cursor`: opaque, and only one the server gave is valid (any other is 400). A well-formed
  cursor is one the server could have given: generated the way the server encodes them.
  `rating-cursor` likewise, for a leaderboard's pages.
- `webhook-url`: a URL whose host resolves to a public address; the suite's server allows
  loopback too (WEBHOOKS_ALLOW_PRIVATE), and a test never sends a name to be looked up, so
  these are URLs on 127.0.0.1's discard port, where nothing listens: a worker that tries one
  is refused at once, and no other local server is ever sent a request.
- `secret-key`: a creation's Idempotency-Key must be unguessable: random UUIDs, as a client is
  told to send. Drawn by hashing, since Hypothesis itself favours simple values (the all-zero
  UUID), which the server rightly refuses.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime

from hypothesis import strategies as st

from api.http.cursors import encode_cursor, encode_rating_cursor
from events.ratings import LeaderPosition

CURSORS = st.builds(
    lambda moment, game: encode_cursor((moment, game)),
    st.datetimes(
        min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
    ),
    st.uuids(),
)
RATING_CURSORS = st.builds(
    lambda display, games, player, rank, after: encode_rating_cursor(
        LeaderPosition(display, games, player, rank, rank + after)
    ),
    st.floats(min_value=-1000, max_value=1000, allow_nan=False),
    st.integers(0, 10**6),
    st.uuids(),
    st.integers(1, 10**6),
    st.integers(0, 10**6),
)
SECRET_KEYS = st.integers(0, 2**64).map(
    lambda n: str(uuid.UUID(bytes=hashlib.sha256(n.to_bytes(9, "big")).digest()[:16], version=4))
)
WEBHOOK_URLS = st.from_regex(r"[a-z0-9/]{0,40}", fullmatch=True).map(
    lambda path: f"http://127.0.0.1:9/{path}"
)
