"""What the app holds for its requests: settings, the database pool, the handler, Redis."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from events.handler import Handler
from events.settings import Settings
from events.signing import HeadSigner


@dataclass
class Services:
    settings: Settings
    pool: object
    handler: Handler
    redis: object
    signer: HeadSigner


def services() -> Services:
    return current_app.extensions["cardroom"]
