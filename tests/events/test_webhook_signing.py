"""Deliveries are signed as Standard Webhooks says (checked with its own package), and an
endpoint's secret is kept sealed: it opens only for its endpoint and player."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from events.sealing import Sealer, Unsealable
from events.webhooks.signing import (
    message_id,
    new_secret,
    open_secret,
    seal_secret,
    signed_headers,
)


def test_a_signed_delivery_verifies_with_the_standard_webhooks_package():
    secret, body = new_secret(), b'{"id":1,"kind":"your_turn"}'
    headers = signed_headers(secret, message_id(uuid.uuid4()), datetime.now(UTC), body)
    assert Webhook(secret).verify(body, headers) == {"id": 1, "kind": "your_turn"}


def test_a_changed_body_or_another_secret_does_not_verify():
    secret, body = new_secret(), b'{"id":1}'
    headers = signed_headers(secret, "msg_1", datetime.now(UTC), body)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(b'{"id":2}', headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(body, headers)


def test_secrets_are_high_entropy_and_carry_the_specifications_prefix():
    secrets = {new_secret() for _ in range(100)}
    assert len(secrets) == 100
    assert all(s.startswith("whsec_") and len(s) >= 6 + 44 for s in secrets)


def test_a_sealed_secret_opens_for_its_endpoint_and_player_only():
    sealer, secret = Sealer(b"k" * 32), new_secret()
    endpoint, player = uuid.uuid4(), uuid.uuid4()
    sealed = seal_secret(sealer, endpoint, player, secret)
    assert secret not in sealed and secret.removeprefix("whsec_") not in sealed
    assert open_secret(sealer, endpoint, player, sealed) == secret
    for other_endpoint, other_player in ((uuid.uuid4(), player), (endpoint, uuid.uuid4())):
        with pytest.raises(Unsealable):
            open_secret(sealer, other_endpoint, other_player, sealed)
    with pytest.raises(Unsealable):
        open_secret(Sealer(b"x" * 32), endpoint, player, sealed)
