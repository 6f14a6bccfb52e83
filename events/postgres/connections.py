"""The types of the pool and its connections (events/postgres/db.py makes the pool)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import DictRow
from psycopg_pool import ConnectionPool

Connection = psycopg.Connection[DictRow]
"""A pool connection: rows come as dicts, unless a cursor asks for another row factory."""

Pool = ConnectionPool[Connection]

AnyConnection = psycopg.Connection[Any]
"""Any connection, the pool's or one opened alone (a command-line check, migrations), for what
reads only through cursors that name their own row factory."""
