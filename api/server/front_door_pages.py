"""The answers HAProxy's front door gives itself (docker/haproxy-errors/, named by
docker/haproxy.cfg): each the API's own problem+json for that case, head and body, so a client
cannot tell which layer answered. `python -m api.server.front_door_pages` writes them;
tests/deploy/test_front_door_pages.py fails when they drift from the API's refusals.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from api.server.gunicorn_worker import HEADER_BYTES_LIMIT, Refusal

DIRECTORY = Path(__file__).resolve().parents[2] / "docker" / "haproxy-errors"
RETRY = (("Retry-After", "1"),)
# The API's limits (api/server/gunicorn_conf.py), as its worker states them.
HEADERS_DETAIL = (
    "the header fields are over the limit of 100 fields of 8190 bytes each, "
    f"{HEADER_BYTES_LIMIT // 1024} KiB in all"
)

PAGES = {
    400: Refusal(400, "validation-error", "the request is not valid HTTP/1.1"),
    408: Refusal(408, "request-timeout", "the body did not arrive in time"),
    403: Refusal(403, "forbidden", "the request is not allowed here"),
    414: Refusal(414, "uri-too-long", "the request line is over the limit of 4094 bytes"),
    431: Refusal(431, "header-fields-too-large", HEADERS_DETAIL),
    500: Refusal(500, "internal-error", "an unexpected error occurred"),
    501: Refusal(501, "not-implemented", "the transfer coding is not one the server knows"),
    # The node died under the request, none is healthy, or it did not answer in time: the
    # API's own 503 `unavailable`, which a client retries after Retry-After.
    502: Refusal(502, "unavailable", "the node serving this request stopped; retry", headers=RETRY),
    503: Refusal(503, "unavailable", "no node can serve this now; retry", headers=RETRY),
    504: Refusal(504, "unavailable", "the node did not answer in time; retry", headers=RETRY),
}


def page_bytes(refusal: Refusal) -> bytes:
    """A whole HTTP response, as HAProxy's errorfile wants it; the headers are the API's
    refusal's (api/server/gunicorn_worker.py), the connection left to HAProxy."""
    body = json.dumps(refusal.body())
    head = [
        f"HTTP/1.1 {refusal.status_line}",
        "Content-Type: application/problem+json",
        f"Content-Length: {len(body.encode())}",
        "Server: cardroom",
        "X-Content-Type-Options: nosniff",
        "Cache-Control: no-store",
        *(f"{name}: {value}" for name, value in refusal.headers),
    ]
    return ("\r\n".join(head) + "\r\n\r\n" + body).encode()


def path_of(status: int) -> Path:
    return DIRECTORY / f"{status}.http"


def write() -> None:
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    for status, refusal in PAGES.items():
        path_of(status).write_bytes(page_bytes(refusal))


if __name__ == "__main__":
    write()
    print(f"wrote {len(PAGES)} pages to {DIRECTORY}", file=sys.stderr)
