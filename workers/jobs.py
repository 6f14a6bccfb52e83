"""RQ job functions. Arguments are ids only; every job reloads the game and is idempotent:
it acts only if the game is still at the version that queued it."""

from __future__ import annotations

import logging
import random
from uuid import UUID

from domain import table as tables
from domain.actions import command_from_action
from domain.table_view import view_table
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
    level = table.seats[seat].level
    # The bot sees exactly what the API would show this seat, nothing more.
    action = table.game_type.bots[level](view_table(table, seat), bot_rng(game_id, version, seat))

    def decision(current_table: tables.Table):
        command = command_from_action(current_table.game_type, seat, action)
        return tables.decide(current_table, command)

    def mark(conn, outcome) -> None:
        outbox.mark_done(conn, game, version, kind)

    try:
        handler.execute(game, decision, expected_version=version, extra=mark)
    except VersionConflict:
        _mark_done(game, version, kind)
        return "stale"
    return "acted"


def _mark_done(game: UUID, version: int, kind: str) -> None:
    with context.handler().pool.connection() as conn:
        outbox.mark_done(conn, game, version, kind)
