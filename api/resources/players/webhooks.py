"""A player's webhooks: POST /me/webhooks (its signing secret shown once), GET /me/webhooks,
DELETE /me/webhooks/{id}, GET /me/webhooks/{id}/deliveries (recent attempts) and
POST /me/webhooks/{id}/test (a ping). All with the player's key; another player's webhook is
404, as a missing one. Deliveries themselves are the workers' (workers/webhooks.py)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import current_player
from api.http.limits import limited
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import json_body
from api.resources.games.common import created
from api.resources.players.blueprint import bp
from api.schemas.webhooks import NewWebhookSchema
from api.services import services
from events.webhooks.addresses import RefusedUrl
from events.webhooks.records import AttemptRow, EndpointRow
from events.webhooks.signing import message_id

NEW_WEBHOOK = NewWebhookSchema()


@bp.post("/me/webhooks")
@limited("actions")
def create_webhook() -> ResponseReturnValue:
    player = current_player()
    body = json_body(NEW_WEBHOOK)
    try:
        endpoint, secret = services().webhooks.register(player.id, body["url"], body["events"])
    except RefusedUrl as refused:
        raise Problem("validation-error", str(refused), errors={"url": [str(refused)]}) from None
    return created(_endpoint(endpoint) | {"secret": secret}, {"Cache-Control": "no-store"})


@bp.get("/me/webhooks")
@limited("reads")
def list_webhooks() -> ResponseReturnValue:
    player = current_player()
    items = [_endpoint(endpoint) for endpoint in services().webhooks.of_player(player.id)]
    return jsonify({"items": items})


@bp.delete("/me/webhooks/<webhook_id>")
@limited("actions")
def delete_webhook(webhook_id: str) -> ResponseReturnValue:
    player = current_player()
    services().webhooks.remove(player.id, _webhook_uuid(webhook_id))
    return Response(status=204)


@bp.get("/me/webhooks/<webhook_id>/deliveries")
@limited("reads")
def webhook_deliveries(webhook_id: str) -> ResponseReturnValue:
    player = current_player()
    attempts = services().webhooks.attempts(player.id, _webhook_uuid(webhook_id))
    return jsonify({"items": [_attempt(attempt) for attempt in attempts]})


@bp.post("/me/webhooks/<webhook_id>/test")
@limited("actions")
def test_webhook(webhook_id: str) -> ResponseReturnValue:
    player = current_player()
    message = services().webhooks.ping(player.id, _webhook_uuid(webhook_id))
    response = jsonify({"webhook_id": message})
    response.status_code = 202
    return response


def _endpoint(endpoint: EndpointRow) -> dict[str, Any]:
    return {
        "id": str(endpoint.id),
        "url": endpoint.url,
        "events": endpoint.events,
        "enabled": endpoint.enabled,
        "failures_in_a_row": endpoint.failures,
        "created_at": iso(endpoint.created_at),
        "disabled_at": iso(endpoint.disabled_at) if endpoint.disabled_at else None,
    }


def _attempt(attempt: AttemptRow) -> dict[str, Any]:
    return {
        "webhook_id": message_id(attempt.message_id),
        "kind": attempt.kind,
        "notice_id": attempt.notice,
        "attempt": attempt.attempt,
        "at": iso(attempt.at),
        "status": attempt.status,
        "latency_ms": attempt.latency_ms,
        "delivered": attempt.delivered,
        "error": attempt.error,
        "answer": attempt.answer,
    }


def _webhook_uuid(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise Problem("not-found", "no such webhook") from None
