"""The connection pool. Connections are in autocommit mode: a read is one round trip, and
a writer begins its own transaction (events/postgres/unit_of_work.py, or `conn.transaction()`),
committed on success and rolled back on error. The hot statements are prepared by name, once
per connection (events/postgres/named_statements.py); psycopg prepares none. No check runs on
checkout (it would cost a round trip per request): a connection that broke while idle fails
one request with a 503, and the pool replaces it."""

from __future__ import annotations

from typing import Any, TypeVar, overload

import psycopg
from psycopg.abc import Params, QueryNoTemplate
from psycopg.rows import RowFactory, TupleRow, dict_row, tuple_row
from psycopg.types.json import set_json_dumps, set_json_loads
from psycopg_pool import ConnectionPool, PoolTimeout

from events import json_text
from events.postgres.connections import AnyConnection, Connection, Pool

R = TypeVar("R")

# Event data, snapshots and replies go to and from jsonb columns: orjson both ways, for every
# connection of the process.
set_json_dumps(json_text.dumps)
set_json_loads(json_text.loads)

# The database is unreachable, or every connection stayed busy past the pool's wait: nothing
# was committed, so the caller may simply retry (the API answers 503).
UNAVAILABLE: tuple[type[Exception], ...] = (psycopg.OperationalError, PoolTimeout)


def make_pool(
    database_url: str,
    max_size: int,
    *,
    min_size: int = 1,
    statement_timeout_ms: int = 15_000,
    idle_in_transaction_timeout_ms: int = 60_000,
    wait_timeout_s: float = 3.0,
) -> Pool:
    # Server-side limits so a stuck request cannot hold a game's row lock (or the global
    # reader's xmin) for long; the pool wait timeout turns exhaustion, or a database that
    # went away, into a 503 within seconds rather than a hang (docs/api.md: within 5 s).
    options = (
        f"-c statement_timeout={statement_timeout_ms}"
        f" -c idle_in_transaction_session_timeout={idle_in_transaction_timeout_ms}"
    )
    kwargs: dict[str, Any] = {
        "autocommit": True,
        "row_factory": dict_row,
        "connect_timeout": 2,
        "options": options,
        # No automatic preparing by psycopg: once it has prepared anything, a ROLLBACK (or a
        # DROP, an ALTER) makes it deallocate every prepared statement of the session, those
        # named_statements.py prepared too. The hot statements are prepared there instead.
        "prepare_threshold": None,
    }
    return ConnectionPool(
        database_url,
        connection_class=Connection,
        min_size=min(min_size, max_size),
        max_size=max_size,
        kwargs=kwargs,
        timeout=wait_timeout_s,
        max_idle=300,
        name="cardroom",
        open=True,
    )


# The reads through a cursor that names its row factory: about forty read one row, or one value
# of it, and about twenty all rows. These say it once.


@overload
def fetch_one(
    conn: AnyConnection, query: QueryNoTemplate, params: Params | None = None
) -> TupleRow | None: ...


@overload
def fetch_one(
    conn: AnyConnection,
    query: QueryNoTemplate,
    params: Params | None = None,
    *,
    row_factory: RowFactory[R],
) -> R | None: ...


def fetch_one(
    conn: AnyConnection,
    query: QueryNoTemplate,
    params: Params | None = None,
    *,
    row_factory: RowFactory[Any] = tuple_row,
) -> Any:
    """The statement's first row (a tuple unless a row factory is named); None if it has none."""
    return conn.cursor(row_factory=row_factory).execute(query, params).fetchone()


def fetch_value(conn: AnyConnection, query: QueryNoTemplate, params: Params | None = None) -> Any:
    """The first column of the statement's first row; None if it has no row (or the value is
    NULL: where the two differ, read the row with fetch_one)."""
    row = fetch_one(conn, query, params)
    return None if row is None else row[0]


@overload
def fetch_all(
    conn: AnyConnection, query: QueryNoTemplate, params: Params | None = None
) -> list[TupleRow]: ...


@overload
def fetch_all(
    conn: AnyConnection,
    query: QueryNoTemplate,
    params: Params | None = None,
    *,
    row_factory: RowFactory[R],
) -> list[R]: ...


def fetch_all(
    conn: AnyConnection,
    query: QueryNoTemplate,
    params: Params | None = None,
    *,
    row_factory: RowFactory[Any] = tuple_row,
) -> Any:
    """Every row of the statement (tuples unless a row factory is named)."""
    return conn.cursor(row_factory=row_factory).execute(query, params).fetchall()
