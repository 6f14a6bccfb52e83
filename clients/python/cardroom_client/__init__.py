"""Cardroom's official Python client: `Cardroom` (blocking) and `AsyncCardroom` (asyncio) speak
the public HTTP API; `cardroom-bot` (cardroom_client.bot) lets an engine in any language play."""

from .aio import AsyncCardroom, AsyncSeat, AsyncTable
from .errors import *  # noqa: F403 - every problem's exception is public
from .errors import BY_CODE, CardroomError, ProblemError, ServerUnreachable
from .models import (
    ActionResult,
    Card,
    Event,
    Game,
    Notice,
    Player,
    Result,
    SeatSpec,
    Ticket,
    You,
    bot,
    first_legal_action,
    human,
    me,
    open_seat,
)
from .sync import Cardroom, Seat, Table
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "ActionResult", "AsyncCardroom", "AsyncSeat", "AsyncTable", "BY_CODE", "Card", "Cardroom",
    "CardroomError", "Event", "Game", "Notice", "Player", "ProblemError", "Result", "Seat",
    "SeatSpec", "ServerUnreachable", "Table", "Ticket", "WebhookVerificationError", "You", "bot",
    "first_legal_action", "human", "me", "open_seat", "verify_webhook",
    *(kind.__name__ for kind in BY_CODE.values()),
]  # fmt: skip
