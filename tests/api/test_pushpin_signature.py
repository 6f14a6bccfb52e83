"""Only the deployment's Pushpin passes as Pushpin: a request's `Grip-Sig` must be a JWT that
Pushpin signed with the key derived from the signing key (api/http/pushpin.py). A client that
reaches the API directly with a `Grip-Sig` of its own is an ordinary client: no stream is held
for it, and it cannot ask a held stream's next link with channels of its choosing (which would
name another seat's view)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
import time

import pytest
import redis
from flask.testing import FlaskClient

from api.http.pushpin import signed_by_pushpin
from api.streams import grip
from api.streams.hub import stream_slots
from events.audit.signing import load_or_create_signer
from events.credentials import token_hash
from events.stream_channels import credential_channel, pushpin_key, viewer_channel
from testing.sse import Stream
from tests.api.play import create_game, humans, tokens_of
from tests.api.real_server import gunicorn_serving, pushpin_serving
from tests.api.test_event_stream import bots, new_game

KEY = b"0123456789abcdef" * 4
NOW = 1_800_000_000.0


def jwt(claims: dict, key: bytes = KEY, alg: str = "HS256") -> str:
    def part(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    signed = f"{part({'alg': alg, 'typ': 'JWT'})}.{part(claims)}"
    mac = hmac.new(key, signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def test_a_token_pushpin_signed_that_has_not_expired_is_pushpins():
    assert signed_by_pushpin(jwt({"iss": "pushpin", "exp": NOW + 60}), KEY, NOW)


@pytest.mark.parametrize(
    "token",
    [
        jwt({"iss": "pushpin", "exp": NOW + 60}, key=b"another key"),
        jwt({"iss": "pushpin", "exp": NOW - 1}),
        jwt({"iss": "someone", "exp": NOW + 60}),
        jwt({"iss": "pushpin"}),
        jwt({"iss": "pushpin", "exp": "soon"}),
        jwt({"iss": "pushpin", "exp": NOW + 60}, alg="none").rpartition(".")[0] + ".",
        jwt({"iss": "pushpin", "exp": NOW + 60}).replace(".", "..", 1),
        "forged",
        "",
        "a.b.c",
        "é.é.é",
    ],
    ids=[
        "another-key",
        "expired",
        "another-issuer",
        "no-expiry",
        "expiry-not-a-time",
        "alg-none",
        "four-parts",
        "not-a-jwt",
        "empty",
        "not-base64",
        "not-ascii",
    ],
)
def test_any_other_grip_sig_is_an_ordinary_clients(token):
    assert not signed_by_pushpin(token, KEY, NOW)


def pushpins_signature(settings) -> dict[str, str]:
    key = pushpin_key(load_or_create_signer(settings.audit_key_path)).encode()
    return {"Grip-Sig": jwt({"iss": "pushpin", "exp": time.time() + 60}, key)}


def plain(app) -> FlaskClient:
    """A plain client: the spec describes one stream message, not a whole streamed body."""
    return FlaskClient(app, app.response_class)


def test_a_stream_asked_with_pushpins_signature_is_held_by_pushpin(client, app, settings):
    game = create_game(client, "trick_and_snipers", humans(3))
    url = f"/games/{game['id']}/events/stream"
    held = plain(app).get(url, headers=pushpins_signature(settings))
    assert held.status_code == 200 and held.headers["Grip-Hold"] == "stream"
    assert "Grip-Link" in held.headers


def test_a_stream_asked_with_a_signature_of_the_clients_own_is_not_held(client, app):
    game = create_game(client, "trick_and_snipers", humans(3))
    url = f"/games/{game['id']}/events/stream"
    served = plain(app).get(url, headers={"Grip-Sig": "forged"}, buffered=False)
    try:
        assert served.status_code == 200 and served.mimetype == "text/event-stream"
        assert "Grip-Hold" not in served.headers and "Grip-Link" not in served.headers
    finally:
        served.close()


def test_a_next_link_with_channels_of_the_clients_choosing_needs_pushpins_signature(
    client, app, settings
):
    # Given a lease of the game, and the channels of seat 0's view with its credential
    game = create_game(client, "trick_and_snipers", humans(3))
    with app.test_request_context():
        lease = grip.sign({"game": game["id"]})
    channels = [
        f"{viewer_channel(game['id'], 0)}; last-id=0",
        f"{credential_channel(token_hash(tokens_of(game)[0]))}; last-id=0",
    ]
    url = f"/games/{game['id']}/events/stream?lease={lease}"
    last = {"Grip-Last": ", ".join(channels)}
    # When a client sends them with a Grip-Sig of its own, it is refused, and sees no event
    forged = plain(app).get(url, headers={**last, "Grip-Sig": "forged"})
    assert forged.status_code == 401 and forged.get_json()["code"] == "unauthorized"
    assert "HandDealt" not in forged.get_data(as_text=True)
    # And the same next link, asked by Pushpin, is answered with seat 0's view
    answered = plain(app).get(url, headers={**last, **pushpins_signature(settings)})
    assert answered.status_code == 200 and "HandDealt" in answered.get_data(as_text=True)


def spectators_served_by_workers(settings, url: str) -> int:
    """While one spectator's stream is open at `url`: the streams the API's workers serve, as
    the stream counts see them (a stream Pushpin holds counts against its client alone)."""
    created = new_game(url, [{"kind": "human", "name": "A"}, {"kind": "open"}, *bots(1)])
    stream = Stream(f"{url}/games/{created['id']}/events/stream")
    try:
        next(stream.messages())
        connection = redis.Redis.from_url(settings.redis_url)
        return stream_slots(settings, connection).open_streams()[1]
    finally:
        stream.close()


def test_the_deployments_pushpin_is_trusted_and_holds_the_streams(settings, tmp_path_factory):
    directory = tmp_path_factory.mktemp("pushpin")
    fronted = dataclasses.replace(settings, queue_name=f"{settings.queue_name}-{directory.name}")
    with pushpin_serving(settings, directory, RATE_LIMITS="off") as front:
        assert spectators_served_by_workers(fronted, front.url) == 0
    # As a control: without Pushpin in front, the worker serves it
    alone = dataclasses.replace(settings, queue_name=f"{settings.queue_name}-alone")
    with gunicorn_serving(alone, RATE_LIMITS="off") as served:
        assert spectators_served_by_workers(alone, f"http://127.0.0.1:{served.port}") == 1
