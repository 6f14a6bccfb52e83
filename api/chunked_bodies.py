"""Bodies sent with `Transfer-Encoding: chunked` are read whole, before anything else sees them.

The server (gunicorn) decodes the chunks while the app reads the body, so a malformed chunk (a
bad size, a missing CRLF, a bad extension, a body cut short) raised in whatever read it first: a
500 and a traceback in a view, a swallowed traceback in the rate limiter, or, when nothing read
the body, gunicorn's own HTML 400 written after our answer as it drained the connection. And
werkzeug cuts a chunked body at MAX_CONTENT_LENGTH without a word, since there is no
Content-Length to refuse first. Read here, a malformed body is a 400 `validation-error` and an
over-size one a 413 `payload-too-large`; everything after reads the body from memory.
"""

from __future__ import annotations

import io
from typing import IO

from flask import Flask, request
from gunicorn.http.errors import ParseException

from api.problems import Problem

# What reading a chunked body raises when the client sent it wrong: gunicorn's parse errors
# (chunks and trailers), a body cut short (NoMoreData is an OSError), a socket timeout.
MALFORMED = (ParseException, OSError, ValueError)
# Past the limit, read (and drop) up to this much more, so that a client still sending gets the
# 413 rather than a connection reset; the server closes a connection it cannot drain.
DRAIN_BYTES = 1024 * 1024
READ_STEP = 64 * 1024


def install_chunked_body_reader(app: Flask, max_bytes: int) -> None:
    """Register before any other `before_request` hook: they may read the body."""

    def read_chunked_body() -> None:
        environ = request.environ
        if not _is_chunked(environ):
            return
        stream = environ["wsgi.input"]
        try:
            body = _read_at_most(stream, max_bytes + 1)
        except MALFORMED:
            raise Problem(
                "validation-error", "the body is not valid chunked transfer coding", errors={}
            ) from None
        if len(body) > max_bytes:
            _drain(stream)
            raise Problem("payload-too-large", f"the body is over {max_bytes // 1024} KiB")
        environ["wsgi.input"] = io.BytesIO(body)

    app.before_request(read_chunked_body)


def _is_chunked(environ: dict) -> bool:
    # Only a server that ends the input stream itself (WSGI's `wsgi.input_terminated`) can be
    # read to its end; any other leaves werkzeug's safe fallback (an empty body) in place.
    coding = environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    return "chunked" in coding and bool(environ.get("wsgi.input_terminated"))


def _read_at_most(stream: IO[bytes], limit: int) -> bytes:
    """The body up to `limit` bytes (fewer at its end)."""
    body = bytearray()
    while len(body) < limit:
        data = stream.read(min(READ_STEP, limit - len(body)))
        if not data:
            break
        body += data
    return bytes(body)


def _drain(stream: IO[bytes]) -> None:
    try:
        _read_at_most(stream, DRAIN_BYTES)
    except MALFORMED:
        pass  # the server sees the failed read and closes the connection
