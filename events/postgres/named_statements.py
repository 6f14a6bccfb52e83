"""Several statements in one message, each still planned once per connection.

The unit of work sends BEGIN with a game's lock, and an append with its COMMIT, as one query
string (the simple query protocol, parameters bound by psycopg's ClientCursor): one write, one
wake-up of the backend. Such a string is parsed and planned anew each time, and the append's
plan is no small part of an action's cost in Postgres. So the statements it holds are prepared
on the connection the first time (PREPARE in the same string, ahead of them) and run by name
(EXECUTE) from then on, as psycopg's own prepared statements would be.

A statement's name comes from its text, so a connection prepares each text once, whoever sends
it. Prepared statements belong to the session, not to a transaction: ROLLBACK keeps them. What a
connection holds is learned from what it ran (a new one holds none); after a failed message,
which may or may not have run its PREPARE, it is read from `pg_prepared_statements` before the
connection's next message (not at once: the failure may have aborted the transaction).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary, WeakSet

import psycopg
from psycopg.rows import TupleRow, tuple_row

from events.postgres.connections import AnyConnection
from events.postgres.db import fetch_all

Statement = tuple[str, Sequence[Any]]  # a query (placeholders %s, no other %) and its parameters
PREFIX = "cardroom_"
# The names each open connection is known to hold; a connection the pool replaces is forgotten.
_held: WeakKeyDictionary[AnyConnection, set[str]] = WeakKeyDictionary()
_unsure: WeakSet[AnyConnection] = WeakSet()  # a message failed since it was last read


@lru_cache(maxsize=256)  # few texts, one per statement and row count: hashed once each
def name_of(query: str) -> str:
    return PREFIX + hashlib.blake2b(query.encode(), digest_size=8).hexdigest()


def run(
    conn: AnyConnection, before: str, statement: Statement, after: str = ""
) -> psycopg.Cursor[TupleRow]:
    """Sends `before` (statements with no parameters, e.g. "BEGIN"), `statement` and `after`
    in one message; the cursor it returns is on `statement`'s answer. Whatever fails raises, as
    the statements would one at a time (those after the failing one do not run)."""
    query, params = statement
    prepare, execute = _prepared(conn, query, len(params))
    parts = [part for part in (prepare, before) if part]
    answer_index = len(parts)
    parts += [part for part in (execute, after) if part]
    cursor = psycopg.ClientCursor(conn, row_factory=tuple_row)
    try:
        cursor.execute("; ".join(parts), params)
    except BaseException:  # an error, or a timeout that cut the message short: either way
        _unsure.add(conn)  # its PREPARE may or may not have run
        raise
    if prepare:
        _held[conn].add(name_of(query))
    for _ in range(answer_index):
        cursor.nextset()
    return cursor


def _prepared(conn: AnyConnection, query: str, count: int) -> tuple[str, str]:
    """The PREPARE the connection still needs for `query` ("" if none), and the statement that
    runs it. A connection on which psycopg prepares statements itself gets `query` as it is:
    psycopg may deallocate them all at any ROLLBACK (events/postgres/db.py)."""
    if conn.prepare_threshold is not None:
        return "", query
    name = name_of(query)
    held = _held.setdefault(conn, set())
    if conn in _unsure:
        _relearn(conn, held)
    execute = f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"
    return ("" if name in held else f"PREPARE {name} AS {_numbered(query, count)}"), execute


def _numbered(query: str, count: int) -> str:
    """`query` with its %s placeholders as PREPARE's $1, $2, ..."""
    return query % tuple(f"${i}" for i in range(1, count + 1))


def _relearn(conn: AnyConnection, held: set[str]) -> None:
    query = "SELECT name FROM pg_prepared_statements WHERE starts_with(name, %s)"
    rows: Sequence[Any] = fetch_all(conn, query, (PREFIX,))
    held.clear()
    held.update(row[0] for row in rows)
    _unsure.discard(conn)
