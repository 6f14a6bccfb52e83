"""Reading requests: JSON bodies, query strings, ids, idempotency keys."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import request
from marshmallow import Schema

from api.http.key_randomness import MIN_LENGTH, is_random_enough
from api.http.problems import Problem
from domain.kit.codec import canonical_json
from events.idempotent_requests import IdempotentRequest, request_hash

MAX_KEY_LENGTH = 255


def json_body(schema: Schema) -> dict[str, Any]:
    body = request.get_json(silent=True, force=True)
    if not isinstance(body, dict):
        raise Problem("validation-error", "the body must be a JSON object", errors={})
    if not _is_unicode(body):
        raise Problem("validation-error", "the body holds text that is not Unicode", errors={})
    loaded: dict[str, Any] = schema.load(body)  # a Schema without many=True loads one dict
    return loaded


def _is_unicode(value: Any) -> bool:
    """JSON may spell lone surrogates (\\ud800), which no UTF-8 text can hold."""
    try:
        canonical_json(value).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def query(schema: Schema) -> dict[str, Any]:
    loaded: dict[str, Any] = schema.load(request.args.to_dict())
    return loaded


def game_uuid(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise Problem("not-found", "no such game") from None


def idempotent_request(scope: str, secret: bool = False) -> IdempotentRequest | None:
    """The request's Idempotency-Key, if any. A `secret` key (creating a game: a retry gets the
    seat tokens again) must be one nobody can guess, e.g. a UUID."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isprintable():
        raise Problem(
            "validation-error",
            "Idempotency-Key must be 1-255 printable characters",
            errors={"Idempotency-Key": ["invalid"]},
        )
    if secret and not is_random_enough(key):
        raise Problem(
            "validation-error",
            "creating a game needs an Idempotency-Key nobody can guess, since a retry with it"
            " gets the seat tokens again: send a random UUID (version 4) or at least"
            f" {MIN_LENGTH} random base64url characters, drawn afresh for each new table",
            errors={"Idempotency-Key": ["not random enough: a random UUID, or 22+ random"
                                        " base64url characters"]},
        )  # fmt: skip
    body = canonical_json(request.get_json(silent=True, force=True))
    # Bytes, so that no text (lone surrogates included) can fail to encode.
    parts = (request.method, request.path, body)
    fingerprint = request_hash(*(part.encode("utf-8", "surrogatepass") for part in parts))
    return IdempotentRequest(scope, key, fingerprint)
