"""A played history game (bench/history_games.py) as the rows of each table the service keeps,
ready for COPY: what the Postgres unit of work would have written, commit by commit, for the
game as it stands. Pure: the signer is handed in.

A finished game keeps no outbox rows (the relay purges work done more than an hour ago) and no
idempotency records (purged after a day); an active table keeps its outbox rows, all done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from bench.history_games import PlayedGame
from events.audit.chain import CURRENT_FORMAT
from events.credentials import token_hash
from events.json_text import dumps

Row = tuple[Any, ...]
Sign = Callable[[str, int, str], str]  # (game id, version, head) -> signature
RELAY_SECONDS = 0.05  # an active table's outbox rows: written -> enqueued

STREAM_COLUMNS = (
    "game_id", "game_type", "status", "version", "head_hash", "head_signature", "chain_format",
    "created_at", "updated_at", "creator", "to_act",
)  # fmt: skip
EVENT_COLUMNS = (
    "game_id", "version", "type", "seat", "data", "visible_to", "recorded_at", "prev_hash",
    "hash", "nonce",
)  # fmt: skip
SNAPSHOT_COLUMNS = ("game_id", "version", "state", "saved_at")
TOKEN_COLUMNS = ("game_id", "seat", "token_hash", "created_at")
INVITE_COLUMNS = ("game_id", "seat", "invite_hash")
SEAT_COLUMNS = ("player_id", "game_id", "seat", "last_acted_version")
# Notices are numbered per player once every game is in (bench/history_load.py), so they go
# to a staging table first, with their order within the game.
NOTICE_COLUMNS = ("player_id", "created_at", "game_id", "version", "seq", "kind", "seat")
OUTBOX_COLUMNS = (
    "game_id", "version", "kind", "urgent", "created_at", "enqueued_at", "done_at",
)  # fmt: skip


def json_text(value: Any) -> str:
    return dumps(value).decode("utf-8")


def created_at(game: PlayedGame) -> datetime:
    return game.events[0].recorded_at if game.events else game.spec.start


def stream_row(game: PlayedGame, sign: Sign) -> Row:
    """The stream row after the game's last commit: its head, signed, whose move it waits for."""
    head = game.head
    game_id = game.spec.game_id
    signature = sign(str(game_id), head.version, head.hash)
    updated = game.events[-1].recorded_at if game.events else game.spec.start
    return (
        game_id, game.spec.game_type, game.status, head.version, head.hash, signature,
        CURRENT_FORMAT, created_at(game), updated, game.spec.creator, list(game.to_act),
    )  # fmt: skip


def event_rows(game: PlayedGame) -> Iterator[Row]:
    for e in game.events:
        visible = None if e.visible_to is None else list(e.visible_to)
        yield (
            e.game_id, e.version, e.type, e.seat, json_text(e.data), visible, e.recorded_at,
            e.prev_hash, e.hash, e.nonce,
        )  # fmt: skip


def snapshot_rows(game: PlayedGame) -> list[Row]:
    if game.snapshot is None:
        return []
    version, state = game.snapshot
    saved = game.events[version - 1].recorded_at
    return [(game.spec.game_id, version, json_text(state), saved)]


def token_rows(game: PlayedGame) -> list[Row]:
    at = created_at(game)
    return [(game.spec.game_id, s, token_hash(t), at) for s, t in sorted(game.tokens.items())]


def invite_rows(game: PlayedGame) -> list[Row]:
    return [(game.spec.game_id, s, token_hash(i)) for s, i in sorted(game.invites.items())]


def seat_rows(game: PlayedGame) -> list[Row]:
    return [
        (held.player, game.spec.game_id, seat, held.last_acted_version)
        for seat, held in sorted(game.player_seats.items())
    ]


def notice_rows(game: PlayedGame) -> list[Row]:
    return [
        (player, at, game.spec.game_id, version, seq, kind, seat)
        for seq, (player, kind, version, seat, at) in enumerate(game.notices)
    ]


def outbox_rows(game: PlayedGame) -> list[Row]:
    """An active table's outbox (a finished game's was purged long ago)."""
    if game.status == "finished":
        return []
    relay = timedelta(seconds=RELAY_SECONDS)
    return [
        (
            game.spec.game_id,
            w.version,
            w.kind,
            w.urgent,
            w.created_at,
            w.created_at + relay,
            w.done_at,
        )  # fmt: skip
        for w in game.work.values()
    ]


def player_row(player_id: UUID, number: int, key: str, created: datetime) -> Row:
    """A player of the history: a name, the hash of a key nobody holds, no notice yet."""
    return (player_id, f"player {number}", token_hash(key), created, 0)


PLAYER_COLUMNS = ("id", "name", "key_hash", "created_at", "notices")
