"""`python -m events.verify EXPORT [--key KEY] [--expect-head HEX]`: checks an export offline.

No server and no database: the file, the chain rule, the key and the domain's rules are enough.
Prints one line per check and exits 0 when every check passes, 1 otherwise, 2 on bad usage.
docs/audit.md says what each check proves, and what an unanchored chain does not.

`python -m events.verify --database [URL]`: the operator's integrity check. Walks every game in
the database (URL, else DATABASE_URL) and recomputes its hash chain and head; prints a BREAK line
per broken game with the first version that fails, progress on stderr, and exits 1 on any break.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from domain.codec import canonical_json
from events.audit import check_deals, check_log
from events.chain import GENESIS, check_chain
from events.export import FORMAT, derived_header, event_record, seats_of
from events.export_file import Export, Refused, parse
from events.signing import key_id, public_key_from, signature_is_valid

if TYPE_CHECKING:  # the offline check imports no database driver
    from events.postgres.audit_reads import ChainedGame

Say = Callable[[str], None]


def verify(
    text: str, say: Say = print, key: str | bytes | None = None, expect_head: str | None = None
) -> bool:
    """Every check on an export's text; `key` is the public key (PEM, /audit-key JSON or
    base64), `expect_head` a head obtained elsewhere."""
    try:
        export = parse(text)
    except Refused as error:
        say(f"FAIL format: {error}")
        return False
    head = export.header
    say(f"ok   format: {head['format']}, game {head['game_id']}, {len(export.events)} events")
    checks = [
        _chain_and_rules(export, say),
        _anchor(export, say, key, expect_head),
        _deals(export, say),
    ]
    return all(checks)


def _chain_and_rules(export: Export, say: Say) -> bool:
    head, events = export.header, export.events
    log = check_log(head["game_id"], head["chain_format"], events)
    ok = True
    if not log.chain.ok:
        say(f"FAIL chain: breaks at version {log.chain.first_bad_version}")
        ok = False
    elif log.chain.head != head["chain_head"]:
        say(f"FAIL chain: the head is {log.chain.head}, the header says {head['chain_head']}")
        ok = False
    else:
        say(f"ok   chain: {len(events)} hashes recomputed, head {log.chain.head}")
    if not log.rules.ok:
        say(f"FAIL rules: {log.rules.problem}")
        return False
    say(f"ok   rules: all {log.rules.events_checked} events re-decided from the players' choices")
    return _result(export, log.rules.table, say) and ok


def _result(export: Export, table, say: Say) -> bool:
    head = export.header
    derived = derived_header(head["game_id"], table, len(export.events))
    wrong = sorted(k for k, v in derived.items() if canonical_json(v) != canonical_json(head[k]))
    if wrong or table.status != "finished":
        say(f"FAIL result: the re-decided game differs from the header in {wrong or ['status']}")
        return False
    winners = (derived["result"] or {}).get("winners")
    say(
        f"ok   result: {table.game_type.id} re-decided to the header's result"
        f" (winners {winners}, {len(seats_of(table))} seats)"
    )
    return True


def _anchor(export: Export, say: Say, key: str | bytes | None, expect_head: str | None) -> bool:
    head = export.header
    ok = True
    if expect_head is not None:
        version, _, wanted = expect_head.lower().rpartition(":")
        at = int(version) if version.isdigit() else len(export.events)
        found = export.events[at - 1]["hash"] if 0 < at <= len(export.events) else None
        if found != wanted:
            say(f"FAIL head: the export's hash at version {at} is {found}, expected {wanted}")
            ok = False
        else:
            say(f"ok   head: the hash at version {at} is the one given with --expect-head")
    if key is None:
        if expect_head is None:
            say("skip signature: no --key given, so nothing anchors this chain (docs/audit.md)")
        return ok
    try:
        public_key = public_key_from(key)
    except ValueError as error:
        say(f"FAIL signature: unreadable key: {error}")
        return False
    if head["key_id"] != key_id(public_key):
        say(f"FAIL signature: the header names key {head['key_id']}, the key given is"
            f" {key_id(public_key)}")  # fmt: skip
        return False
    args = (head["game_id"], head["version"], head["chain_head"], head["head_signature"])
    if head["chain_head"] == GENESIS or not signature_is_valid(public_key, *args):
        say("FAIL signature: the head's signature does not verify with the given key")
        return False
    say(f"ok   signature: the head is signed by key {head['key_id']}")
    return ok


def _deals(export: Export, say: Say) -> bool:
    deals = check_deals(export.events)
    if not deals.ok or deals.checked == 0:
        say(f"FAIL deals: commitments of versions {deals.bad_versions or '(none found)'}")
        return False
    say(f"ok   deals: {deals.checked} deal(s) match their published commitments")
    return True


def verify_bytes(raw: bytes, say: Say = print, **anchors) -> bool:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        say(f"FAIL format: not UTF-8: {error}")
        return False
    return verify(text, say, **anchors)


def read_key(where: str) -> bytes:
    """A key file, or the URL of a server's GET /audit-key."""
    if where.startswith(("http://", "https://")):
        from urllib.request import urlopen

        with urlopen(where, timeout=10) as response:  # noqa: S310 (the user names the URL)
            return response.read()
    with open(where, "rb") as file:
        return file.read()


def chain_break(game: ChainedGame) -> str | None:
    """Why one stored game's chain does not hold (naming the first bad version), or None."""
    records = [event_record(event) for event in game.events]
    checked = check_chain(game.stream.chain_format, str(game.game_id), records)
    if not checked.ok:
        return f"at version {checked.first_bad_version}: an event's data, link or hash"
    stream = game.stream
    if stream.version != len(records):
        return f"at version {len(records) + 1}: the game says version {stream.version}," \
            f" its log holds {len(records)} events"  # fmt: skip
    if stream.head_hash != checked.head:
        return f"at version {stream.version}: the stored head is not the last event's hash"
    return None


def check_database(url: str, say: Say = print, progress: Say | None = None) -> int:
    """Walks every game's chain; returns how many are broken."""
    import psycopg

    from events.postgres.audit_reads import chained_games, count_games

    progress = progress or (lambda line: print(line, file=sys.stderr, flush=True))
    broken = checked = events = 0
    with psycopg.connect(url, autocommit=True) as conn:  # a transaction per batch
        total = count_games(conn)
        progress(f"checking the chains of {total} games")
        shown = time.monotonic()
        for game in chained_games(conn):
            why = chain_break(game)
            if why is not None:
                broken += 1
                say(f"BREAK game {game.game_id} {why}")
            checked += 1
            events += len(game.events)
            if time.monotonic() - shown >= 2:
                shown = time.monotonic()
                progress(f"{checked}/{total} games checked, {broken} broken")
    if broken:
        say(f"BROKEN: {broken} of {checked} games ({events} events checked)")
    else:
        say(f"OK: {checked} games, {events} events, every chain holds")
    return broken


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m events.verify",
        description=(
            f"Check a finished game's export ({FORMAT}) offline: canonical lines, the hash chain,"
            " every move re-decided by the rules, the deal commitments and, given a key or a"
            " head obtained elsewhere, the anchor. Exit status 0: verified; 1: not; 2: usage."
        ),
    )
    parser.add_argument("export", nargs="?", help="the NDJSON file from GET /games/{id}/export")
    parser.add_argument(
        "--database",
        nargs="?",
        const="",
        metavar="URL",
        help="instead of an export: walk every game's hash chain in this Postgres database"
        " (default: DATABASE_URL); exit status 1 on any break",
    )
    parser.add_argument(
        "--key",
        help="the server's public key: a file (PEM, base64, or the JSON of GET /audit-key)"
        " or the URL of GET /audit-key; checks the head's signature",
    )
    parser.add_argument(
        "--expect-head",
        metavar="[VERSION:]HEX",
        help="a head obtained elsewhere (e.g. from /audit): the final one, or the hash at"
        " VERSION when pinned mid-game; the chain must lead from it",
    )
    return parser


def main(argv: list[str]) -> int:
    parser = arguments()
    options = parser.parse_args(argv)
    if options.database is not None:
        if options.export or options.key or options.expect_head:
            parser.error("--database checks the database alone: no export, --key or --expect-head")
        return _main_database(parser, options.database or os.environ.get("DATABASE_URL", ""))
    if options.export is None:
        parser.error("give an export file, or --database")
    try:
        with open(options.export, "rb") as file:
            raw = file.read()
        key = read_key(options.key) if options.key else None
    except OSError as error:
        print(f"FAIL read: {error}")
        print("NOT VERIFIED")
        return 1
    ok = verify_bytes(raw, key=key, expect_head=options.expect_head)
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


def _main_database(parser: argparse.ArgumentParser, url: str) -> int:
    if not url:
        parser.error("--database needs a URL, or DATABASE_URL set")
    import psycopg

    try:
        return 1 if check_database(url) else 0
    except psycopg.OperationalError as error:
        print(f"cannot read the database: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
