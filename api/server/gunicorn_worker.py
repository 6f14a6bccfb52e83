"""The gevent worker that api/server/gunicorn_conf.py names: gunicorn's own, except for the answers
gunicorn gives itself, before the app runs.

A request gunicorn cannot parse or will not read (a request line over `limit_request_line`, too
many or too large header fields, a malformed line or header, a transfer coding other than
chunked, ...) never reaches the app: gunicorn answers it with an HTML page that quotes what was
wrong, e.g. the raw request line with its `?access_token=`, and logs the same quote. Here each
is an `application/problem+json` like every other error, with a stable `code` and a fixed
`detail`, and the log line names the refusal, never what the client sent.

gunicorn's master imports this module (to find the class) before a worker monkey-patches, so it
imports nothing beyond what gunicorn's gevent worker imports itself: no psycopg, redis or app.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from http import HTTPStatus
from ssl import SSLError  # already imported by gunicorn.workers.base
from typing import Any

import gevent
from gunicorn import util
from gunicorn.http import errors
from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers.ggevent import GeventWorker

from api.http.lingering import linger

RETRY = (("Retry-After", "1"),)
# Python's phrase for 414 is RFC 2616's; RFC 9110 names it this.
PHRASES = {414: "URI Too Long"}
# The API's limits on what a client sends in a head (api/server/gunicorn_conf.py gives gunicorn
# the first three), which HAProxy's front door applies as well (docker/haproxy.cfg): the request
# line; the header fields, each `Name: value` with its CRLF, their count, and all of them
# together, which gunicorn does not bound by itself (the front door can read 64 KiB whole).
LINE_LIMIT = 4094
FIELD_BYTES_LIMIT = 8190
FIELDS_LIMIT = 100
HEADER_BYTES_LIMIT = 32 * 1024
# Behind proxies (TRUSTED_PROXIES), room for the fields they add after the client's were judged
# at the front: X-Forwarded-For, and on a stream Pushpin's Grip-Sig, X-Forwarded-Proto, ...
PROXY_FIELDS_ROOM = 8
PROXY_BYTES_ROOM = 4096


class HeaderFieldsTooLarge(errors.LimitRequestHeaders):
    """The header fields together are over HEADER_BYTES_LIMIT."""


def header_bytes(headers: list[tuple[str, str]]) -> int:
    return sum(len(name) + len(value) + 4 for name, value in headers)


@dataclass(frozen=True)
class Refusal:
    status: int
    code: str
    detail: str
    part: str = "request"  # the part of the request a `validation-error` names
    headers: tuple[tuple[str, str], ...] = ()

    @property
    def status_line(self) -> str:
        return f"{self.status} {PHRASES.get(self.status) or HTTPStatus(self.status).phrase}"

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": f"https://cardroom.dev/problems/{self.code}",
            "title": self.code.replace("-", " ").capitalize(),
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if self.code == "validation-error":
            body["errors"] = {self.part: [self.detail]}
        return body


def refusal_of(exc: BaseException, cfg: Any) -> Refusal:
    """What to answer for an error gunicorn raised before (or instead of) the app: statuses as
    gunicorn's own `Worker.handle_error` gives them; codes from the API's problem codes."""

    def invalid(part: str, detail: str) -> Refusal:
        return Refusal(400, "validation-error", detail, part)

    # The app's fault, not the client's (a response header it may not send), like any 500.
    if isinstance(exc, (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName)):
        return Refusal(500, "internal-error", "an unexpected error occurred")
    if isinstance(exc, errors.LimitRequestLine):
        return Refusal(
            414, "uri-too-long", f"the request line is over the limit of {LINE_LIMIT} bytes"
        )
    if isinstance(exc, errors.LimitRequestHeaders):
        detail = (
            f"the header fields are over the limit of {FIELDS_LIMIT} fields of"
            f" {FIELD_BYTES_LIMIT} bytes each, {HEADER_BYTES_LIMIT // 1024} KiB in all"
        )
        return Refusal(431, "header-fields-too-large", detail)
    if isinstance(exc, errors.UnsupportedTransferCoding):
        return Refusal(501, "not-implemented", "the transfer coding is not one the server knows")
    if isinstance(exc, errors.ExpectationFailed):
        return Refusal(417, "expectation-failed", "the only expectation served is 100-continue")
    if isinstance(exc, errors.ForbiddenProxyRequest):
        return Refusal(403, "forbidden", "a PROXY protocol header is not allowed from here")
    if isinstance(exc, SSLError):
        return Refusal(403, "forbidden", "the TLS handshake failed")
    if isinstance(exc, errors.InvalidRequestLine):
        return invalid("request_line", "the request line is not `METHOD target HTTP/1.1`")
    if isinstance(exc, errors.InvalidRequestMethod):
        return invalid("method", "the method is not a valid HTTP method")
    if isinstance(exc, errors.InvalidHTTPVersion):
        return invalid("http_version", "the HTTP version is not HTTP/1.0 or HTTP/1.1")
    if isinstance(exc, errors.InvalidHeader) and exc.hdr in ("CONTENT-LENGTH", "TRANSFER-ENCODING"):
        return invalid("headers", "Content-Length or Transfer-Encoding is not valid")
    if isinstance(exc, (errors.InvalidHeader, errors.InvalidHeaderName, errors.ObsoleteFolding)):
        return invalid("headers", "a header field is not valid")
    if isinstance(
        exc, (errors.InvalidChunkSize, errors.ChunkMissingTerminator, errors.InvalidChunkExtension)
    ):
        return invalid("body", "the body is not valid chunked transfer coding")
    if isinstance(exc, errors.ConfigurationProblem):
        return Refusal(500, "internal-error", "an unexpected error occurred")
    if isinstance(exc, errors.ParseException):  # the PROXY protocol, scheme headers, h2c, ...
        return invalid("request", "the request is not valid HTTP/1.1")
    if isinstance(exc, (gevent.GreenletExit, SystemExit)):  # the worker is stopping
        return Refusal(503, "unavailable", "the server is restarting; retry", headers=RETRY)
    return Refusal(500, "internal-error", "an unexpected error occurred")


def response_bytes(refusal: Refusal) -> bytes:
    body = json.dumps(refusal.body()).encode()
    head = [
        f"HTTP/1.1 {refusal.status_line}",
        "Connection: close",
        "Content-Type: application/problem+json",
        f"Content-Length: {len(body)}",
        f"Server: {gunicorn_wsgi.SERVER}",  # "cardroom" once api.server.wsgi is loaded
        "X-Content-Type-Options: nosniff",
        "Cache-Control: no-store",
        *(f"{name}: {value}" for name, value in refusal.headers),
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


def fields_limit(behind_proxies: bool) -> int:
    return FIELDS_LIMIT + (PROXY_FIELDS_ROOM if behind_proxies else 0)


def header_bytes_limit(behind_proxies: bool) -> int:
    return HEADER_BYTES_LIMIT + (PROXY_BYTES_ROOM if behind_proxies else 0)


class ProblemWorker(GeventWorker):
    # Set by gunicorn_conf from TRUSTED_PROXIES, so that fields count as the client sent them.
    behind_proxies = False

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        if header_bytes(req.headers) > header_bytes_limit(self.behind_proxies):
            raise HeaderFieldsTooLarge("the header fields together are over the limit")
        return super().handle_request(listener_name, req, sock, addr)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        started = datetime.now()
        addr = addr or ("", -1)  # a unix socket
        refusal = refusal_of(exc, self.cfg)
        if refusal.code == "internal-error":
            # Not gunicorn's message, which quotes the request target, query string and all.
            self.log.exception("error before or around the app: %s", type(exc).__name__)
        else:
            what = (refusal.status, refusal.code, type(exc).__name__, addr[0])
            self.log.info("refused before the app: %s %s (%s) from ip=%s", *what)
        data = response_bytes(refusal)
        req = req or getattr(exc, "req", None)  # a parsed request, or the raw line: not logged
        if hasattr(req, "headers"):
            self._log_access(req, client, addr, refusal, len(data), started)
        try:
            util.write_nonblock(client, data)
            if refusal.code != "unavailable":  # a stopping worker does not wait on its clients
                linger(client)
        except Exception:
            self.log.debug("the client left before its refusal was sent")

    def _log_access(
        self, req: Any, client: Any, addr: Any, refusal: Refusal, length: int, started: datetime
    ) -> None:
        # As gunicorn does, so that an access log (off by default) shows refusals too; the
        # logger redacts the request line it writes.
        environ = gunicorn_wsgi.default_environ(req, client, self.cfg)
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = addr[0], str(addr[1])
        resp = gunicorn_wsgi.Response(req, client, self.cfg)
        resp.status = refusal.status_line
        resp.response_length = length
        self.log.access(resp, req, environ, datetime.now() - started)
