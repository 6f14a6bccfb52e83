"""One attempt of one delivery, as a worker's job makes it: lease the delivery, check its URL's
address again, send the signed notice, record what came back, and disable the endpoint when
it has failed too often in a row (telling its player with an `endpoint_disabled` notice).

No database connection is held while the receiver is waited for: the lease (a statement)
keeps other jobs from sending the same attempt meanwhile, and recording it is one transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from events import json_text
from events.audit.chain import timestamp
from events.postgres import players, webhooks
from events.postgres.connections import Pool
from events.sealing import Sealer
from events.webhooks import addresses, delivery, schedule, signing
from events.webhooks.delivery import Attempt
from events.webhooks.endpoints import ENDPOINT_DISABLED
from events.webhooks.records import PING, LeasedDelivery

log = logging.getLogger("cardroom.webhooks")


@dataclass(frozen=True, slots=True)
class Pace:
    """How patient deliveries are (settings: WEBHOOK_RETRY_SECONDS, WEBHOOK_MAX_FAILURES)."""

    first_retry_seconds: float = schedule.FIRST_DELAY_SECONDS
    failure_limit: int = schedule.MAX_FAILURES
    allow_private: bool = False


def payload(leased: LeasedDelivery) -> dict[str, Any]:
    """The notice itself, as GET /me/stream sends it (a ping: kind "ping", no number): ids,
    kinds and numbers only, never a card."""
    at = leased.notice_at or leased.created_at
    return {
        "id": leased.notice,
        "kind": leased.kind,
        "game_id": None if leased.game_id is None else str(leased.game_id),
        "version": leased.version,
        "seat": leased.seat,
        "at": timestamp(at),
    }


def deliver(pool: Pool, sealer: Sealer, pace: Pace, delivery_id: int, failures: int) -> str:
    """Makes attempt `failures + 1` of the delivery: "delivered", "failed", or "skipped" when
    that attempt is not this job's to make (made already, being made, endpoint gone)."""
    with pool.connection() as conn:
        leased = webhooks.lease(conn, delivery_id, failures)
    if leased is None:
        return "skipped"
    attempt = _attempt(sealer, pace, leased)
    outcome = _record(pool, pace, leased, attempt)
    return "delivered" if attempt.delivered else outcome


def _attempt(sealer: Sealer, pace: Pace, leased: LeasedDelivery) -> Attempt:
    try:
        target = addresses.parse_url(leased.url)
        address = addresses.checked_address(target, pace.allow_private)
    except addresses.RefusedUrl as refused:
        return delivery.refused(str(refused))
    secret = signing.open_secret(sealer, leased.endpoint_id, leased.player_id, leased.secret_sealed)
    body = json_text.dumps(payload(leased))
    message = signing.message_id(leased.message_id)
    headers = signing.signed_headers(secret, message, datetime.now(UTC), body)
    return delivery.post(target, address, headers, body)


def _record(pool: Pool, pace: Pace, leased: LeasedDelivery, attempt: Attempt) -> str:
    retry = schedule.retry_delay(leased.failures + 1, pace.first_retry_seconds)
    with pool.connection() as conn, conn.transaction():
        outcome = webhooks.record(
            conn, leased, attempt.status, attempt.latency_ms, attempt.error, attempt.answer,
            attempt.delivered, retry, pace.failure_limit,
        )  # fmt: skip
        if outcome is None:
            return "skipped"
        if outcome.disabled_now:
            players.add_notice(conn, leased.player_id, ENDPOINT_DISABLED)
            players.wake_player(conn, leased.player_id)
    if outcome.disabled_now:
        log.warning("webhook %s disabled after %d failures in a row", leased.endpoint_id,
                    outcome.failures_in_a_row)  # fmt: skip
    return "failed" if leased.kind != PING or not attempt.delivered else "delivered"
