"""What the games routes share: the answers to commands, first time or replayed."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from api.http.rendering import render_event, render_game
from api.services import services
from domain.kit.decider import Event
from events.results import Committed, Replayed


def action_body(result: Committed | Replayed, seat: int) -> dict[str, Any]:
    """`{"version", "events", "game"}` as the acting seat sees them; a replayed request gets
    the same answer again, rendered from what it appended (with the deadlines of now)."""
    events: list[Event | None]
    if isinstance(result, Committed):
        table, stored, events = result.table, result.stored, list(result.events)
        deadlines = result.deadlines
    else:
        queries = services().queries
        table = queries.table_at(result.game_id, result.version)
        stored = queries.events(result.game_id, result.before, result.version - result.before)
        events = [None] * len(stored)
        deadlines = queries.deadlines(result.game_id, table)
    shown = [render_event(table, s, seat, e) for s, e in zip(stored, events, strict=True)]
    game = render_game(result.game_id, result.version, table, seat, deadlines)
    return {"version": result.version, "events": shown, "game": game}


def created_body(result: Committed | Replayed) -> dict[str, Any]:
    """The new game as a spectator sees it, and each human seat's token."""
    if isinstance(result, Committed):
        table, deadlines = result.table, result.deadlines
    else:
        queries = services().queries
        table = queries.table_at(result.game_id, result.version)
        deadlines = queries.deadlines(result.game_id, table)
    body = render_game(result.game_id, result.version, table, None, deadlines)
    secrets = result.secrets
    body["tokens"] = [{"seat": seat, "token": token} for seat, token in secrets.tokens.items()]
    body["invites"] = [{"seat": s, "invite": invite} for s, invite in secrets.invites.items()]
    return body


def created(body: dict[str, Any], headers: dict[str, Any] | None = None) -> Response:
    response = jsonify(body)
    response.status_code = 201
    response.headers.update(headers or {})
    return response
