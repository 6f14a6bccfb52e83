"""What a history costs on disk: bytes per event (the events table with its TOAST and its
indexes, and the whole database) and the size of every index, largest first."""

from __future__ import annotations

import psycopg

INDEXES = """
SELECT c.relname, t.relname, pg_relation_size(c.oid)
FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_class t ON t.oid = i.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND NOT t.relname LIKE 'bench\\_%'
ORDER BY pg_relation_size(c.oid) DESC, c.relname
"""
EVENTS = """
SELECT (SELECT count(*) FROM events), pg_relation_size('events'),
       pg_table_size('events') - pg_relation_size('events'), pg_indexes_size('events'),
       pg_total_relation_size('events'), pg_database_size(current_database())
"""


def sizes(url: str) -> tuple[tuple[int, ...], list[tuple[str, str, int]]]:
    """(events, heap, TOAST and maps, indexes, events in all, database), and every index's
    (name, table, bytes)."""
    with psycopg.connect(url, autocommit=True) as conn:
        events = conn.execute(EVENTS).fetchone()
        assert events is not None
        indexes = conn.execute(INDEXES).fetchall()
    return tuple(events), indexes


def size(count: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def print_sizes(url: str) -> dict[str, float]:
    """Prints the sizes; the bytes per event as figures."""
    (events, heap, toast, indexes, total, database), every = sizes(url)
    per = max(events, 1)
    print(f"events: {events:,}; bytes per event: {total / per:.0f} (heap {heap / per:.0f},"
          f" TOAST and maps {toast / per:.0f}, indexes {indexes / per:.0f});"
          f" whole database {database / per:.0f} ({size(database)})")  # fmt: skip
    print(f"{'index':<40} {'table':<20} {'size':>10}")
    for name, table, bytes_ in every:
        print(f"{name:<40} {table:<20} {size(bytes_):>10}")
    return {"events": events, "bytes_per_event": round(total / per),
            "database_bytes_per_event": round(database / per)}  # fmt: skip
