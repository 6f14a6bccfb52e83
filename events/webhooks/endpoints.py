"""A player's webhook endpoints: registered (the URL checked, a secret made, shown once and kept
sealed), listed, removed, pinged, and their recent attempts read. Another player's endpoint is
as good as missing."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from uuid import UUID

from domain.tables.notices import MATCH_FOUND, TABLE_KINDS
from events.errors import ApplicationError
from events.postgres import webhooks
from events.postgres.connections import Pool
from events.sealing import Sealer
from events.webhooks import addresses, signing
from events.webhooks.records import AttemptRow, EndpointRow

ENDPOINT_DISABLED = "endpoint_disabled"  # a player-level notice: no game, version or seat
KINDS = (*TABLE_KINDS, MATCH_FOUND, ENDPOINT_DISABLED)  # what an endpoint may subscribe to
MAX_ENDPOINTS = 5  # per player
ATTEMPTS_SHOWN = 50


class NoSuchWebhook(ApplicationError):
    code = "not-found"


class TooManyWebhooks(ApplicationError):
    code = "limit-reached"


class WebhookDisabled(ApplicationError):
    code = "webhook-disabled"


class Webhooks:
    def __init__(
        self,
        pool: Pool,
        sealer: Sealer,
        allow_private: bool,
        resolver: addresses.Resolver = addresses.resolve,
    ) -> None:
        self._pool = pool
        self._sealer = sealer
        self._allow_private = allow_private
        self.resolver = resolver  # how a registered URL's host is looked up

    def register(self, player_id: UUID, url: str, events: Sequence[str]) -> tuple[EndpointRow, str]:
        """A new endpoint and its signing secret (shown this once); RefusedUrl for a URL the
        address rules refuse, TooManyWebhooks past MAX_ENDPOINTS."""
        target = addresses.parse_url(url)
        addresses.checked_address(target, self._allow_private, self.resolver)
        endpoint_id, secret = uuid.uuid4(), signing.new_secret()
        sealed = signing.seal_secret(self._sealer, endpoint_id, player_id, secret)
        with self._pool.connection() as conn, conn.transaction():
            if webhooks.count_of(conn, player_id) >= MAX_ENDPOINTS:
                raise TooManyWebhooks(f"a player has {MAX_ENDPOINTS} webhooks at most")
            row = webhooks.create(conn, endpoint_id, player_id, url, _distinct(events), sealed)
        return row, secret

    def of_player(self, player_id: UUID) -> list[EndpointRow]:
        with self._pool.connection() as conn:
            return webhooks.endpoints_of(conn, player_id)

    def remove(self, player_id: UUID, endpoint_id: UUID) -> None:
        with self._pool.connection() as conn, conn.transaction():
            if not webhooks.delete(conn, player_id, endpoint_id):
                raise NoSuchWebhook("no such webhook")

    def ping(self, player_id: UUID, endpoint_id: UUID) -> str:
        """Queues a ping behind the endpoint's waiting deliveries; its `webhook-id`."""
        with self._pool.connection() as conn, conn.transaction():
            endpoint = webhooks.endpoint(conn, player_id, endpoint_id)
            if endpoint is None:
                raise NoSuchWebhook("no such webhook")
            if not endpoint.enabled:
                raise WebhookDisabled("the webhook is disabled: register it again")
            message = webhooks.add_ping(conn, player_id, endpoint_id)
        assert message is not None
        return signing.message_id(message)

    def attempts(self, player_id: UUID, endpoint_id: UUID) -> list[AttemptRow]:
        with self._pool.connection() as conn:
            if webhooks.endpoint(conn, player_id, endpoint_id) is None:
                raise NoSuchWebhook("no such webhook")
            return webhooks.attempts_of(conn, endpoint_id, ATTEMPTS_SHOWN)


def _distinct(events: Sequence[str]) -> list[str]:
    return sorted(set(events), key=KINDS.index)
