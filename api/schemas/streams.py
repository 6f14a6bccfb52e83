"""The query string of both Server-Sent Events streams: a game's events and a player's notices."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class StreamQuery(Schema):
    """Where to resume, and the credentials an EventSource can send only in the URL. A ticket is
    not checked for its form: whatever is no ticket, empty or overlong too, is unknown (401),
    as a token is; only `after` differs between the streams, in how far it reaches."""

    after = fields.Integer()
    access_token = fields.String()
    ticket = fields.String()
    lease = fields.String(validate=validate.Length(1, 2048))  # Pushpin's next link

    def __init__(self, highest_after: int) -> None:
        super().__init__()
        self.fields["after"].validators = [validate.Range(0, highest_after)]
