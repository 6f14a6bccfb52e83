"""Reads every game's events in one order, without skipping rows that commit late.

Identity values are taken at insert but become visible at commit, out of order, so
`global_position > last` misses rows. Instead: order by (tx_id, global_position) and read only
rows of transactions older than the snapshot's xmin, which have all committed or aborted; any
transaction still running or yet to start has tx_id >= xmin, so sorts after the checkpoint.
A long-open writing transaction delays readers (never makes them skip): keep them short.
"""

from __future__ import annotations

from typing import NamedTuple

from events.postgres.connections import Connection
from events.postgres.db import fetch_all
from events.postgres.store import EVENT_COLUMNS, StoredEvent, event_from_row


class Checkpoint(NamedTuple):
    tx_id: int
    global_position: int


START = Checkpoint(0, 0)

# xid8 has no cast from bigint; it travels as text both ways.
_READ = f"""
SELECT {EVENT_COLUMNS}, tx_id::text FROM events
WHERE (tx_id, global_position) > (%s::xid8, %s)
  AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY tx_id, global_position
LIMIT %s"""


def read_global(
    conn: Connection, checkpoint: Checkpoint = START, limit: int = 500
) -> tuple[list[StoredEvent], Checkpoint]:
    """The next events after `checkpoint` and the checkpoint to resume from (unchanged if none).
    Under READ COMMITTED (or autocommit) each call sees what committed since the last."""
    rows = fetch_all(conn, _READ, (str(checkpoint.tx_id), checkpoint.global_position, limit))
    if not rows:
        return [], checkpoint
    last = rows[-1]
    return [event_from_row(row) for row in rows], Checkpoint(int(last[-1]), last[9])
