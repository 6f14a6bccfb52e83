"""RQ job functions. Arguments are ids only; every job reloads the game and is idempotent:
it acts only if the game is still at the version that queued it."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from uuid import UUID

from domain import table as tables
from domain.actions import command_from_action
from domain.decider import Automatic
from domain.table_view import view_table
from domain.templates import action_from_template
from events import outbox
from events.handler import VersionConflict, bot_kind
from workers import context

log = logging.getLogger("cardroom.jobs")


def bot_rng(game_id: str, version: int, seat: int) -> random.Random:
    """A generator seeded by the turn itself: a bot's choice can be reproduced from the log."""
    return random.Random(f"{game_id}:{version}:{seat}")


def run_bot_turn(game_id: str, version: int, seat: int) -> str:
    def due(table: tables.Table) -> bool:
        return seat in table.game_type.to_act(table.game)

    def decision(table: tables.Table) -> list:
        return bot_decision(table, seat, bot_rng(game_id, version, seat))

    return _run_once(game_id, version, bot_kind(seat), due, decision, done="acted")


def run_automatic(game_id: str, version: int, kind: str) -> str:
    """Work no seat does (e.g. round scoring), done only while the game asks for exactly it."""

    def due(table: tables.Table) -> bool:
        return table.game_type.automatic(table.game) == kind

    def decision(table: tables.Table) -> list:
        return tables.decide(table, Automatic(kind))

    return _run_once(game_id, version, kind, due, decision, done="done")


def _run_once(
    game_id: str,
    version: int,
    kind: str,
    due: Callable[[tables.Table], bool],
    decision: Callable[[tables.Table], list],
    done: str,
) -> str:
    """Appends `decision` only if the game is still at `version` and the work is still `due`,
    and marks the outbox row done in the same commit: a retried or duplicated job appends
    nothing."""
    game = UUID(game_id)
    handler = context.handler()
    with handler.pool.connection() as conn:
        table, current = handler.repository.load(conn, game)
    if current != version or not due(table):
        _mark_done(game, version, kind)
        return "stale"

    def mark(conn, outcome) -> None:
        outbox.mark_done(conn, game, version, kind)

    try:
        handler.execute(game, decision, expected_version=version, extra=mark)
    except VersionConflict:
        _mark_done(game, version, kind)
        return "stale"
    return done


def bot_decision(table: tables.Table, seat: int, rng: random.Random) -> list:
    """The bot's move; should a bot ever fail or choose an illegal move, the first legal action
    is played instead, so a bug in a bot never leaves a game waiting forever."""
    # The bot sees exactly what the API would show this seat, nothing more.
    view = view_table(table, seat)
    bot = table.game_type.bots[table.seats[seat].level]
    try:
        action = bot(view, rng)
        return tables.decide(table, command_from_action(table.game_type, seat, action))
    except Exception:
        log.exception("bot %s at seat %s failed; playing its first legal action", bot, seat)
    fallback = action_from_template(view["you"]["legal_actions"][0], rng)
    return tables.decide(table, command_from_action(table.game_type, seat, fallback))


def _mark_done(game: UUID, version: int, kind: str) -> None:
    with context.handler().pool.connection() as conn:
        outbox.mark_done(conn, game, version, kind)
