"""Request bodies of a player's webhooks."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from events.webhooks.addresses import MAX_URL_LENGTH
from events.webhooks.endpoints import KINDS


class NewWebhookSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(1, MAX_URL_LENGTH))
    events = fields.List(
        fields.String(validate=validate.OneOf(KINDS)),
        required=True,
        validate=validate.Length(1, 2 * len(KINDS)),  # repeats are taken once
    )
