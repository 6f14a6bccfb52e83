"""RQ job functions. Arguments are ids only; every job reloads the game and is idempotent:
it acts only if the game is still at the version that queued it."""

from __future__ import annotations

import logging
import random
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
    game = UUID(game_id)
    handler = context.handler()
    kind = bot_kind(seat)
    with handler.pool.connection() as conn:
        table, current = handler.repository.load(conn, game)
    if current != version or seat not in table.game_type.to_act(table.game):
        _mark_done(game, version, kind)
        return "stale"

    def decision(current_table: tables.Table):
        return bot_decision(current_table, seat, bot_rng(game_id, version, seat))

    def mark(conn, outcome) -> None:
        outbox.mark_done(conn, game, version, kind)

    try:
        handler.execute(game, decision, expected_version=version, extra=mark)
    except VersionConflict:
        _mark_done(game, version, kind)
        return "stale"
    return "acted"


def run_automatic(game_id: str, version: int, kind: str) -> str:
    """Work no seat does (e.g. round scoring): appended once, only if the game still waits for
    exactly this work at exactly this version, so a retried or duplicated job appends nothing."""
    game = UUID(game_id)
    handler = context.handler()
    with handler.pool.connection() as conn:
        table, current = handler.repository.load(conn, game)
    if current != version or table.game_type.automatic(table.game) != kind:
        _mark_done(game, version, kind)
        return "stale"

    def mark(conn, outcome) -> None:
        outbox.mark_done(conn, game, version, kind)

    try:
        handler.execute(
            game,
            lambda current_table: tables.decide(current_table, Automatic(kind)),
            expected_version=version,
            extra=mark,
        )
    except VersionConflict:
        _mark_done(game, version, kind)
        return "stale"
    return "done"


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
