"""What gunicorn refuses itself, before the app runs, sent as raw bytes to a real gunicorn (as
`make run` starts it): each is one problem+json with a stable code, and no secret the request
carried shows in the answer or in any log line, at DEBUG and with an access log on."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import gevent
import pytest
import requests
from gunicorn.config import Config
from gunicorn.http import errors

from api.http.redaction import redact_secrets
from api.server.gunicorn_worker import refusal_of
from tests.api.real_server import gunicorn_serving
from tests.api.spec import load_spec
from tests.api.test_chunked_bodies import Answer, new_log_lines, parse
from tests.service import ROOT

SECRET = "SECRETxSEATxTOKENxNEVERxLOGGED0123456789ab"
STREAM = "/games/00000000-0000-4000-8000-000000000000/events/stream"
HEAD = f"Host: cardroom\r\nAuthorization: Bearer {SECRET}\r\nIdempotency-Key: {SECRET}\r\n"

# What gunicorn cannot parse or will not read: (raw request, status, code).
REFUSED = {
    "a request line over the limit": (
        f"GET {STREAM}?access_token={SECRET}&pad={'a' * 5000} HTTP/1.1\r\n{HEAD}\r\n",
        414,
        "uri-too-long",
    ),
    "a malformed request line": (
        f"GET {STREAM}?access_token={SECRET}\r\n{HEAD}\r\n",
        400,
        "validation-error",
    ),
    "an unknown HTTP version": (
        f"GET {STREAM}?ticket={SECRET} HTTP/7.1\r\n{HEAD}\r\n",
        400,
        "validation-error",
    ),
    "a malformed method": (
        f"G(T {STREAM}?access_token={SECRET} HTTP/1.1\r\n{HEAD}\r\n",
        400,
        "validation-error",
    ),
    "a header line without a colon": (
        f"GET /healthz HTTP/1.1\r\nHost: cardroom\r\nAuthorization Bearer {SECRET}\r\n\r\n",
        400,
        "validation-error",
    ),
    "a header name with a space": (
        f"GET /healthz HTTP/1.1\r\n{HEAD}Bad Name: {SECRET}\r\n\r\n",
        400,
        "validation-error",
    ),
    "a folded header line": (
        f"GET /healthz HTTP/1.1\r\n{HEAD}X-Folded: a\r\n {SECRET}\r\n\r\n",
        400,
        "validation-error",
    ),
    "a header value with a NUL": (
        f"GET /healthz HTTP/1.1\r\nHost: cardroom\r\nAuthorization: Bearer {SECRET}\x00\r\n\r\n",
        400,
        "validation-error",
    ),
    "too many header fields": (
        f"GET /healthz?access_token={SECRET} HTTP/1.1\r\n{HEAD}"
        + "".join(f"X-{i}: {i}\r\n" for i in range(101))
        + "\r\n",
        431,
        "header-fields-too-large",
    ),
    "a header field over the limit": (
        f"GET /healthz HTTP/1.1\r\nHost: cardroom\r\nAuthorization: Bearer {SECRET}"
        f"{'a' * 9000}\r\n\r\n",
        431,
        "header-fields-too-large",
    ),
    "two Content-Lengths": (
        f"POST /games HTTP/1.1\r\n{HEAD}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{{}}",
        400,
        "validation-error",
    ),
    "a Content-Length that is not a number": (
        f"POST /games HTTP/1.1\r\n{HEAD}Content-Length: {SECRET}\r\n\r\n{{}}",
        400,
        "validation-error",
    ),
    "an unsupported transfer coding": (
        f"POST /games HTTP/1.1\r\n{HEAD}Transfer-Encoding: br, chunked\r\n\r\n0\r\n\r\n",
        501,
        "not-implemented",
    ),
    "an unknown expectation": (
        f"POST /games HTTP/1.1\r\n{HEAD}Expect: {SECRET}\r\nContent-Length: 2\r\n\r\n{{}}",
        417,
        "expectation-failed",
    ),
}


@pytest.fixture(scope="module")
def server(settings, tmp_path_factory) -> Iterator[tuple[tuple[str, int], Path]]:
    """One worker, at DEBUG, with gunicorn's access log on: every line gunicorn can write."""
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with gunicorn_serving(
        settings, "--access-logfile", "-", log=log, WEB_WORKERS="1", LOG_LEVEL="DEBUG"
    ) as served:
        yield served.address, log


def exchange(address: tuple[str, int], raw: str, close_sending: bool = True) -> bytes:
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(raw.encode("latin-1"))
        if close_sending:
            sock.shutdown(socket.SHUT_WR)
        received = b""
        while data := sock.recv(65536):
            received += data
    return received


@pytest.mark.parametrize(("raw", "status", "code"), REFUSED.values(), ids=REFUSED.keys())
def test_a_request_gunicorn_refuses_is_a_problem_that_quotes_nothing(server, raw, status, code):
    address, log = server
    logged = log.stat().st_size
    received = exchange(address, raw)
    answer = parse(received)
    problem = answer.problem()
    assert (answer.status, problem["status"], problem["code"]) == (status, status, code)
    assert problem["code"] in problem_codes()
    assert answer.headers["connection"] == "close" and answer.headers["server"] == "cardroom"
    assert answer.after == b""
    assert SECRET.encode() not in received
    lines = new_log_lines(log, logged)
    assert f"refused before the app: {status} {code}" in lines
    assert SECRET not in lines and "Traceback" not in lines


def test_a_refusal_arrives_while_the_client_is_still_sending(server):
    address, _ = server
    raw = f"GET /games?access_token={SECRET}{'a' * 300_000} HTTP/1.1\r\n{HEAD}\r\n"
    answer: Answer = parse(exchange(address, raw, close_sending=False))
    assert answer.status == 414 and answer.problem()["code"] == "uri-too-long"


def test_a_request_cut_short_logs_no_secret_even_at_debug(server):
    address, log = server
    logged = log.stat().st_size
    assert exchange(address, f"GET {STREAM}?access_token={SECRET} HTTP/1.1\r\n{HEAD}") == b""
    lines = new_log_lines(log, logged)
    assert "premature client disconnection" in lines  # the line that quotes the raw head
    assert SECRET not in lines


def test_the_access_log_shows_no_query_string_or_credential(server):
    (host, port), log = server
    logged = log.stat().st_size
    url = f"http://{host}:{port}/healthz?access_token={SECRET}"
    response = requests.get(url, headers={"Authorization": f"Bearer {SECRET}"}, timeout=5)
    assert response.status_code == 200
    # gunicorn writes its access log line once the response is sent: the client may read the
    # response first.
    lines = log_lines_with(log, logged, "GET /healthz?[redacted]")  # the access line, redacted
    assert SECRET not in lines


def log_lines_with(log: Path, since: int, text: str, timeout: float = 5.0) -> str:
    """The lines logged since `since`, once they hold `text` (as they are, after `timeout`)."""
    deadline = time.monotonic() + timeout
    lines = new_log_lines(log, since)
    while text not in lines and time.monotonic() < deadline:
        time.sleep(0.05)
        lines = new_log_lines(log, since)
    assert text in lines
    return lines


def test_a_well_formed_request_still_reaches_the_app(server):
    (host, port), _ = server
    response = requests.get(f"http://{host}:{port}/games/not-a-game", timeout=5)
    assert response.status_code == 404
    assert response.json()["code"] == "not-found"


# Every error gunicorn hands its worker, with what the worker answers.
ERRORS = [
    (errors.LimitRequestLine(5000, 4094), 414, "uri-too-long"),
    (errors.LimitRequestHeaders("limit request headers fields"), 431, "header-fields-too-large"),
    (errors.InvalidRequestLine(f"GET /?access_token={SECRET}"), 400, "validation-error"),
    (errors.InvalidRequestMethod("G(T"), 400, "validation-error"),
    (errors.InvalidHTTPVersion("HTTP/7.1"), 400, "validation-error"),
    (errors.InvalidHeader(f"Authorization Bearer {SECRET}"), 400, "validation-error"),
    (errors.InvalidHeaderName("Bad Name"), 400, "validation-error"),
    (errors.ObsoleteFolding("X-FOLDED"), 400, "validation-error"),
    (errors.InvalidChunkSize(b"zz"), 400, "validation-error"),
    (errors.ChunkMissingTerminator(b"XX"), 400, "validation-error"),
    (errors.InvalidChunkExtension("bad"), 400, "validation-error"),
    (errors.InvalidProxyLine("PROXY x"), 400, "validation-error"),
    (errors.InvalidSchemeHeaders(), 400, "validation-error"),
    (errors.InvalidH2CPreface(b"x"), 400, "validation-error"),
    (errors.UnsupportedTransferCoding("gzip"), 501, "not-implemented"),
    (errors.ExpectationFailed("x"), 417, "expectation-failed"),
    (errors.ForbiddenProxyRequest("10.0.0.1"), 403, "forbidden"),
    (errors.ConfigurationProblem("x"), 500, "internal-error"),
    (errors.InvalidResponseHeader("X-A"), 500, "internal-error"),
    (gevent.GreenletExit(), 503, "unavailable"),
    (RuntimeError("x"), 500, "internal-error"),
]


@pytest.mark.parametrize(("error", "status", "code"), ERRORS, ids=lambda e: type(e).__name__)
def test_each_gunicorn_error_has_a_status_and_a_documented_code(error, status, code):
    refusal = refusal_of(error, Config())
    assert (refusal.status, refusal.code) == (status, code)
    assert refusal.code in problem_codes()
    assert SECRET not in refusal.detail and SECRET not in str(refusal.body())


def test_redaction_hides_every_secret_gunicorn_may_quote():
    raw = (
        f"GET {STREAM}?access_token={SECRET} HTTP/1.1\r\nAuthorization: Bearer {SECRET}\r\n"
        f"Idempotency-Key: {SECRET}\r\nCookie: a={SECRET}\r\n"
    ).encode()
    for text in (
        repr(raw),
        raw.decode(),
        f"Invalid HTTP Header: 'Authorization Bearer {SECRET}'",
        f'{{"invite": "{SECRET}", "name": "Ann"}}',
        f"GET /games/x/events/stream?access%5Ftoken={SECRET}",
        f"token={SECRET}&ticket={SECRET}",
    ):
        assert SECRET not in redact_secrets(text), text
    assert redact_secrets("Booting worker with pid: 12") == "Booting worker with pid: 12"


def test_redaction_matches_names_beyond_ascii_as_case_insensitive_patterns_do():
    # To a case-insensitive pattern U+0130 is an `i`; str.lower() makes it two characters.
    hidden = "hunter2hunter2hunter2"  # unlike SECRET, no name of a secret in it
    for text in (f"\u0130NVITE={hidden}", f"bearer\u00a0{hidden} \u00e9", f"t\u00f6ken?x={hidden}"):
        assert hidden not in redact_secrets(text), text
    assert redact_secrets("Spieler G\u00fcnther ist am Zug") == "Spieler G\u00fcnther ist am Zug"


def test_the_master_imports_no_database_redis_or_app_with_the_worker_and_logger():
    # gunicorn's master imports both before a worker monkey-patches (see api/__init__.py).
    script = (
        "import sys, api.server.gunicorn_worker, api.server.gunicorn_log; "
        "print(sorted(m for m in ('psycopg', 'redis', 'flask', 'api.app') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def problem_codes() -> list[str]:
    return load_spec()["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
