"""The public log of finished games: an append-only RFC 9162 Merkle tree of every finished
game's final head, with signed checkpoints (events/audit/log_format.py says the bytes), so
that anyone can check the server shows everyone the same history.

One appender at a time (workers/log_appender.py) takes the finished games queued in the
transactions that finished them, oldest first, and appends their leaves, the perfect subtrees
they complete and the batch's signed checkpoint in one transaction: a crash appends all of a
batch or none of it, and a game's leaf is there once (its id is unique in the log). Readers
see only what a signed checkpoint covers: the leaves, the proofs and the checkpoint commit
together.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from uuid import UUID

from events.audit import merkle
from events.audit.log_format import Checkpoint, leaf_bytes, leaf_hash, sign_checkpoint
from events.audit.signing import HeadSigner
from events.postgres import public_log as stored
from events.postgres.connections import AnyConnection, Pool

MAX_ENTRIES = 1000  # leaves one entries() call returns at most
APPEND_BATCH = 1000  # finished games one append takes at most
MAX_SIZE = 2**62  # no tree is larger: a bound for sizes and indexes asked for


@dataclass(frozen=True)
class LogEntry:
    index: int
    game_id: str
    leaf: bytes


@dataclass(frozen=True)
class Inclusion:
    index: int
    size: int
    hashes: list[bytes]


class BeyondTheLog(ValueError):
    """A size or index the latest signed checkpoint does not reach, or sizes out of order."""


class _AtHand:
    """A SubtreeReader over hashes already read or just made."""

    def __init__(self, hashes: Mapping[merkle.Key, bytes]) -> None:
        self._hashes = hashes

    def read(self, keys: Collection[merkle.Key]) -> Mapping[merkle.Key, bytes]:
        return {key: self._hashes[key] for key in keys}


class PublicLog:
    def __init__(self, pool: Pool, signer: HeadSigner, origin: str) -> None:
        self._pool = pool
        self._signer = signer
        self.origin = origin

    def size(self) -> int:
        """Leaves in the latest signed checkpoint."""
        with self._pool.connection() as conn:
            return self._latest(conn)[0]

    def checkpoint_note(self) -> bytes:
        """The latest signed checkpoint, a C2SP signed note (the empty tree is signed too)."""
        with self._pool.connection() as conn:
            return self._latest(conn)[1]

    def entries(self, start: int, end: int) -> list[LogEntry]:
        """The leaves of [start, end), at most MAX_ENTRIES of them, never past the latest
        checkpoint (fewer than asked for: ask again from where they stop)."""
        if start < 0 or end < start:
            raise BeyondTheLog(f"no entries from {start} to {end}")
        with self._pool.connection() as conn:
            end = min(end, start + MAX_ENTRIES, self._latest(conn)[0])
            rows = stored.leaves(conn, start, end) if start < end else []
        return [LogEntry(index, str(game_id), leaf) for index, game_id, leaf in rows]

    def inclusion(self, game_id: str, size: int | None = None) -> Inclusion | None:
        """The game's leaf index and audit path in the tree of `size` (default: the latest
        checkpoint's); None when the game's leaf is not in that tree."""
        try:
            game = UUID(game_id)
        except ValueError:
            return None
        with self._pool.connection() as conn:
            latest = self._latest(conn)[0]
            size = latest if size is None else size
            if not 0 <= size <= latest:
                raise BeyondTheLog(f"the log's latest checkpoint has {latest} leaves")
            index = stored.leaf_index(conn, game)
            if index is None or index >= size:
                return None
            hashes = merkle.inclusion_proof(index, size, stored.StoredSubtrees(conn))
        return Inclusion(index, size, hashes)

    def consistency(self, first: int, second: int) -> list[bytes]:
        """RFC 9162 §2.1.4's proof that the tree of `first` leaves is a prefix of the tree of
        `second` (empty when first is 0 or equals second)."""
        with self._pool.connection() as conn:
            latest = self._latest(conn)[0]
            if not 0 <= first <= second <= latest:
                raise BeyondTheLog(
                    f"no proof from {first} to {second}: sizes run from 0 to {latest}, in order"
                )
            return merkle.consistency_proof(first, second, stored.StoredSubtrees(conn))

    def append_pending(self, limit: int = APPEND_BATCH) -> int:
        """Appends the oldest finished games not yet in the log (at most `limit`) and signs the
        new tree, all in one transaction; the number of queued games taken (`limit`: there
        may be more)."""
        with self._pool.connection() as conn, conn.transaction():
            stored.lock_appends(conn)
            games, taken = stored.pending_games(conn, limit)
            if games:
                self._append(conn, games)
            else:
                self._latest(conn)  # the empty tree gets its checkpoint too
            stored.take_pending(conn, taken)
        return len(taken)

    def _append(self, conn: AnyConnection, games: list[stored.FinishedGame]) -> None:
        size = stored.tree_size(conn)
        leaves = [
            (g.game_id, leaf_bytes(str(g.game_id), g.head, g.game_type, g.version)) for g in games
        ]
        keys = merkle.frontier_keys(size)
        frontier = stored.StoredSubtrees(conn).read(keys)
        made = merkle.appended_subtrees(
            size, [frontier[key] for key in keys], [leaf_hash(leaf) for _, leaf in leaves]
        )
        stored.insert_leaves(conn, size, leaves)
        stored.insert_subtrees(conn, made)
        new_size = size + len(leaves)
        root = merkle.root(new_size, _AtHand({**frontier, **made}))
        stored.save_checkpoint(conn, new_size, self._signed(new_size, root))

    def _latest(self, conn: AnyConnection) -> tuple[int, bytes]:
        """The latest checkpoint's size and note; the empty tree's, signed now, before any."""
        latest = stored.latest_checkpoint(conn)
        if latest is None:
            stored.save_checkpoint(conn, 0, self._signed(0, merkle.fold([])))
            latest = stored.latest_checkpoint(conn)
            assert latest is not None  # saved just now, or by another process meanwhile
        return latest

    def _signed(self, size: int, root: bytes) -> bytes:
        return sign_checkpoint(Checkpoint(self.origin, size, root), self._signer)
