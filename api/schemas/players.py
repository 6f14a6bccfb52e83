"""Request bodies and query strings of players and their inbox."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas.common import name_field


class NewPlayerSchema(Schema):
    name = name_field(required=True)


class InboxQuery(Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))
    turn = fields.String(validate=validate.OneOf(["mine"]))
    cursor = fields.String(validate=validate.Length(1, 200))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class LeaderboardQuery(Schema):
    cursor = fields.String(validate=validate.Length(1, 200))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
