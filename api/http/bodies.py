"""Request bodies are read whole, within BODY_TIMEOUT_SECONDS, before anything else sees them.

Why first: a view that takes a pool connection or a game's row lock and then reads the body holds
them for as long as the client takes to send it. One socket that declared 50 bytes and sent `{`
froze a table (no action, bot or turn timer could move it); 24 held every pool connection of the
server. Read here, the body is in memory before any hook, rate limit, view or lock touches it,
and a slow client holds nothing but its own greenlet.

- A body not complete within the timeout is 408 `request-timeout`. The failed read marks
  gunicorn's body as failed, and gunicorn never reuses such a connection: it closes once the
  answer is written.
- A body over the limit is 413 `payload-too-large` before a byte of it is read: at once from its
  Content-Length, and for chunked coding as soon as the chunk sizes announced pass the limit.
- After either answer the server half-closes and drops what the client still sends, for a
  second at most, before closing: a socket closed with input unread resets the connection, and
  the client may lose the answer before reading it (RFC 9112, section 9.6).
- Chunked coding (`Transfer-Encoding: chunked`): gunicorn decodes chunks while the app reads, so
  a malformed chunk (a bad size, a missing CRLF, a bad extension, a body cut short) raised in
  whatever read it first. Here it is a 400 `validation-error`. werkzeug would cut a chunked body
  at MAX_CONTENT_LENGTH without a word, having no Content-Length to refuse first.

The timeout is gevent's: the API is served by gunicorn's gevent workers
(api/server/gunicorn_conf.py), where a blocked read is a greenlet waiting. Under any other server
(the test client's bodies are already in memory) bodies are read without one.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

from flask import Flask, Response, request
from gunicorn.http.errors import ParseException

from api.http.lingering import linger
from api.http.problems import Problem

# What reading a chunked body raises when the client sent it wrong: gunicorn's parse errors
# (chunks and trailers), a body cut short (NoMoreData is an OSError), a socket timeout.
MALFORMED = (ParseException, OSError, ValueError)
READ_STEP = 64 * 1024
HANG_UP = "cardroom.hang_up"  # in the environ: close the connection once the answer is sent


class BodyTimedOut(Exception):
    """The body was not complete in time. An Exception (gevent's own Timeout is not one), so
    that gunicorn's reader marks the body as failed and closes the connection after the 408."""


class ChunksTooLarge(Exception):
    """The chunk sizes announced so far add up to more than the limit."""


def install_body_reader(app: Flask, max_bytes: int, timeout_seconds: float) -> None:
    """Register before any other `before_request` hook: they may read the body."""

    def read_body() -> None:
        environ = request.environ
        chunked = _is_chunked(environ)
        if not chunked and not request.content_length:
            return  # no body, or one werkzeug reads as empty
        if (request.content_length or 0) > max_bytes:
            raise _hanging_up(_too_large(max_bytes))
        stream = environ["wsgi.input"]
        if chunked:
            _refuse_chunks_over(stream, max_bytes)
        # Never past a declared length: a server's input stream may be the raw socket.
        limit = max_bytes + 1 if chunked else request.content_length or 0
        try:
            with _deadline(timeout_seconds):
                body = _read_at_most(stream, limit)
        except BodyTimedOut:
            detail = f"the body did not arrive within {timeout_seconds:g} s"
            raise _hanging_up(Problem("request-timeout", detail)) from None
        except ChunksTooLarge:
            raise _hanging_up(_too_large(max_bytes)) from None
        except MALFORMED:
            if not chunked:  # the client went away mid-body: nobody reads the answer
                raise Problem("validation-error", "the body ended early", errors={}) from None
            raise Problem(
                "validation-error", "the body is not valid chunked transfer coding", errors={}
            ) from None
        if len(body) > max_bytes:
            raise _hanging_up(_too_large(max_bytes))
        environ["wsgi.input"] = io.BytesIO(body)

    def hang_up_after_refusal(response: Response) -> Response:
        sock = request.environ.get("gunicorn.socket")
        if request.environ.get(HANG_UP) and sock is not None:
            response.call_on_close(lambda: linger(sock))
        return response

    app.before_request(read_body)
    app.after_request(hang_up_after_refusal)


def _hanging_up(problem: Problem) -> Problem:
    """The problem, with the connection marked to close once it is answered."""
    request.environ[HANG_UP] = True
    return problem


def _too_large(max_bytes: int) -> Problem:
    return Problem("payload-too-large", f"the body is over {max_bytes // 1024} KiB")


def _is_chunked(environ: dict[str, Any]) -> bool:
    # Only a server that ends the input stream itself (WSGI's `wsgi.input_terminated`) can be
    # read to its end; any other leaves werkzeug's safe fallback (an empty body) in place.
    coding = environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    return "chunked" in coding and bool(environ.get("wsgi.input_terminated"))


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raises BodyTimedOut in the reading greenlet once `seconds` have passed, however the
    bytes trickle in (a timeout per socket read would let one byte a second go on forever)."""
    from gevent import Timeout, monkey

    if not monkey.is_module_patched("socket"):
        yield
        return
    with Timeout(seconds, BodyTimedOut):
        yield


def _refuse_chunks_over(stream: Any, max_bytes: int) -> None:
    """Makes gunicorn's chunked reader raise ChunksTooLarge when the sizes it has read pass
    `max_bytes`, before it reads the chunk: a client that announces a 10 MB chunk gets its 413
    at once, not after sending 64 KiB. Only gunicorn's reader is known; any other is left be."""
    reader: Any = getattr(stream, "reader", None)
    found: Callable[..., tuple[int, Any]] | None = getattr(reader, "parse_chunk_size", None)
    if found is None:
        return
    parse_size = found
    announced = 0

    def checked_size(*args: Any, **kwargs: Any) -> tuple[int, Any]:
        nonlocal announced
        size, rest = parse_size(*args, **kwargs)
        announced += size
        if announced > max_bytes:
            raise ChunksTooLarge()
        return size, rest

    reader.parse_chunk_size = checked_size  # the parser looks it up when it first runs


def _read_at_most(stream: IO[bytes], limit: int) -> bytes:
    """The body up to `limit` bytes (fewer at its end)."""
    body = bytearray()
    while len(body) < limit:
        data = stream.read(min(READ_STEP, limit - len(body)))
        if not data:
            break
        body += data
    return bytes(body)
