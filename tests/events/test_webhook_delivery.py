"""One attempt's HTTP, against a server of the test's own on 127.0.0.1: the connection goes to
the address checked whatever the URL's host name, a redirect is a failure and is not followed,
and at most 1 KB of an answer is read."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from events.webhooks.addresses import Target
from events.webhooks.delivery import ANSWER_BYTES, post

LOCAL = ipaddress.ip_address("127.0.0.1")


@contextmanager
def server(status: int, body: bytes, seen: list[dict]) -> Iterator[int]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            seen.append({"path": self.path, "host": self.headers["Host"],
                         "body": self.rfile.read(length)})  # fmt: skip
            self.send_response(status)
            if status == 302:
                self.send_header("Location", f"http://127.0.0.1:{port}/elsewhere")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield port
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_post_goes_to_the_checked_address_under_the_urls_host_name():
    seen: list[dict] = []
    with server(204, b"", seen) as port:
        target = Target("http", "hooks.example.com", port, "/in?x=1")
        attempt = post(target, LOCAL, {"webhook-id": "msg_1"}, b'{"id":1}')
    assert attempt.delivered and attempt.status == 204 and attempt.error is None
    assert seen == [{"path": "/in?x=1", "host": f"hooks.example.com:{port}", "body": b'{"id":1}'}]


def test_a_redirect_is_a_failure_and_is_not_followed():
    seen: list[dict] = []
    with server(302, b"", seen) as port:
        attempt = post(Target("http", "127.0.0.1", port, "/"), LOCAL, {}, b"{}")
    assert not attempt.delivered and attempt.status == 302
    assert attempt.error == "redirects are not followed"
    assert [s["path"] for s in seen] == ["/"]


def test_at_most_1_kb_of_an_answer_is_read_and_kept():
    with server(500, b"x" * 100_000, []) as port:
        attempt = post(Target("http", "127.0.0.1", port, "/"), LOCAL, {}, b"{}")
    assert attempt.status == 500 and not attempt.delivered
    assert attempt.answer == "x" * ANSWER_BYTES


def test_no_listener_is_a_refused_connection_not_an_exception():
    with server(200, b"", []) as port:
        pass  # closed: nothing listens on the port now
    attempt = post(Target("http", "127.0.0.1", port, "/"), LOCAL, {}, b"{}")
    assert attempt.status is None and attempt.error == "connection refused"


def self_signed(tmp_path) -> tuple[str, str]:
    """A certificate for 127.0.0.1 that no authority signed, and its key (PEM files)."""
    from datetime import UTC, datetime, timedelta

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(LOCAL)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_path), str(key_path)


def test_https_refuses_a_certificate_no_trusted_authority_signed(tmp_path):
    import ssl

    seen: list[dict] = []
    cert, key = self_signed(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append({"path": self.path})
            self.send_response(204)
            self.end_headers()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    port = httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        attempt = post(Target("https", "127.0.0.1", port, "/"), LOCAL, {}, b"{}")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert attempt.status is None and not attempt.delivered
    assert attempt.error is not None and attempt.error.startswith("certificate refused")
    assert seen == []
