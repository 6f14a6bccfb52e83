"""Query strings of the public log's routes (GET /log/...)."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from events.public_log import MAX_SIZE


def _size(required: bool = False, data_key: str | None = None) -> fields.Integer:
    return fields.Integer(
        required=required, data_key=data_key, validate=validate.Range(0, MAX_SIZE)
    )


class EntriesQuery(Schema):
    start = _size(required=True)
    end = _size(required=True)

    @validates_schema
    def _in_order(self, data: dict[str, int], **kwargs: object) -> None:
        if data["end"] <= data["start"]:
            raise ValidationError("end must be greater than start", "end")


class InclusionQuery(Schema):
    game = fields.String(required=True, validate=validate.Length(1, 64))
    size = _size()


class ConsistencyQuery(Schema):
    # `from` is a Python keyword: the field keeps its name on the wire only.
    first = _size(required=True, data_key="from")
    second = _size(required=True, data_key="to")

    @validates_schema
    def _in_order(self, data: dict[str, int], **kwargs: object) -> None:
        if data["second"] < data["first"]:
            raise ValidationError("to must be at least from", "to")
