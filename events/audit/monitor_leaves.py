"""The monitor's reading of the log's entries, and its check of each new leaf against the
game it names: the game's export, verified as `python -m events.audit.verify --key` does
(the chain re-derived, every move re-decided, the head's signature), must end at the very
head, type and version the leaf holds. A finished game rewritten after its leaf went into the
log, even re-chained and re-signed with the key, is caught there.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from events.audit.export_checks import examine
from events.audit.log_client import LogServer, Unreliable
from events.audit.log_format import leaf_bytes

PAGE = 1000  # entries asked for at once; the server may send fewer
MAX_LEAF_BYTES = 4096
LEAF_KEYS = frozenset({"game_id", "head", "type", "version"})


@dataclass(frozen=True)
class Entry:
    index: int
    game_id: str
    leaf: bytes


def entries(server: LogServer, start: int, end: int) -> Iterator[Entry]:
    """Entries start..end-1, page after page, each where it should be."""
    while start < end:
        page = server.json("/log/entries", start=start, end=min(start + PAGE, end))
        items = page.get("items")
        if not isinstance(items, list) or not items or len(items) > end - start:
            raise Unreliable(f"GET /log/entries?start={start} did not send entries {start} on")
        for index, item in enumerate(items, start=start):
            yield _entry(item, index)
        start += len(items)


def _entry(item: Any, index: int) -> Entry:
    where = f"entry {index} of GET /log/entries"
    if not isinstance(item, dict) or set(item) != {"index", "game_id", "leaf"}:
        raise Unreliable(f"{where} is not an object of index, game_id and leaf")
    if item["index"] != index or not isinstance(item["game_id"], str):
        raise Unreliable(f"{where} says index {item['index']!r}, game {item['game_id']!r}")
    try:
        leaf = base64.b64decode(item["leaf"], validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise Unreliable(f"{where}: its leaf is not base64") from None
    if len(leaf) > MAX_LEAF_BYTES:
        raise Unreliable(f"{where}: its leaf is longer than any game's")
    return Entry(index, item["game_id"], leaf)


def leaf_fields(entry: Entry) -> dict[str, Any] | None:
    """What the leaf says, when it is a game's canonical leaf naming the entry's game."""
    try:
        value = json.loads(entry.leaf)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or set(value) != LEAF_KEYS:
        return None
    game, head, kind, version = (value[k] for k in ("game_id", "head", "type", "version"))
    if not all(isinstance(v, str) for v in (game, head, kind)) or type(version) is not int:
        return None
    if leaf_bytes(game, head, kind, version) != entry.leaf or game != entry.game_id:
        return None
    return value


def leaf_problem(server: LogServer, entry: Entry, key: bytes) -> str | None:
    """Why leaf `entry` is not its game's verified head, or None when it is. Unreliable when
    the export cannot be fetched at all."""
    said = leaf_fields(entry)
    name = f"leaf {entry.index} (game {entry.game_id})"
    if said is None:
        return f"{name} is not a game's canonical leaf: {entry.leaf[:120]!r}"
    report = examine(server.export(entry.game_id), key=key)
    failed = [line for line in report.lines if line.status == "FAIL"]
    if not report.anchored or any(line.check != "log" for line in failed):
        first = next((str(line) for line in failed), "")
        return f"{name}: its export does not verify ({report.verdict}): {first}"
    head = report.header
    exported = {"head": head["chain_head"], "type": head["type"], "version": head["version"]}
    logged = {"head": said["head"], "type": said["type"], "version": said["version"]}
    if exported != logged:
        return (
            f"{name}: the log holds head {logged['head']} at version {logged['version']}"
            f" ({logged['type']}), its export's verified head is {exported['head']} at version"
            f" {exported['version']} ({exported['type']}): the game was rewritten after it went"
            " into the log"
        )
    if failed:  # the leaf is right, but the export's own proof of it is not
        return f"{name}: its export's own place in the log does not hold: {failed[0]}"
    return None
