"""`python -m events.audit.verify EXPORT [--key KEY] [--expect-head HEX] [--checkpoint NOTE
[--proof PROOF]] [--json]`: checks an export offline.

No server and no database: the file, the chain rule, the key and the domain's rules are enough.
Prints one line per check, then the verdict (events/audit/verdicts.py), each with its own exit
status: 0 VERIFIED (every check passed and a key or a pinned head anchors the file), 3 CONSISTENT,
NOT ANCHORED (every check passed, nothing anchors it), 1 NOT VERIFIED; 2 is bad usage. `--json`
prints the same as one JSON object. docs/audit.md says what each check proves. `--checkpoint`
checks that the game's leaf is in the public log's tree of a signed checkpoint obtained
elsewhere, by the export's inclusion proof or the one `--proof` gives (docs/audit.md 10).

`python -m events.audit.verify --database [URL]`: the operator's integrity check. Walks every
game in the database (URL, else DATABASE_URL) and recomputes its hash chain and head; prints a
BREAK line per broken game with the first version that fails, progress on stderr, and exits 1
on any break.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.kit.codec import canonical_json
from events.audit.chain import check_chain
from events.audit.export import FORMAT, event_record
from events.audit.export_checks import examine, examine_text
from events.audit.verdicts import Report

if TYPE_CHECKING:  # the offline check imports no database driver
    from events.postgres.audit_reads import ChainedGame

Say = Callable[[str], None]


def verify(
    text: str, say: Say = print, key: str | bytes | None = None, expect_head: str | None = None
) -> bool:
    """Every check on an export's text, each line said; True when every check passed, anchored
    or not (the command line's verdict tells the two apart)."""
    return _said(examine_text(text, key, expect_head), say)


def verify_bytes(raw: bytes, say: Say = print, **anchors: Any) -> bool:
    return _said(examine(raw, **anchors), say)


def _said(report: Report, say: Say) -> bool:
    for line in report.lines:
        say(str(line))
    return report.consistent


def read_key(where: str) -> bytes:
    """A file, or a URL (a server's GET /audit-key, /log/checkpoint or /log/proof/...)."""
    if where.startswith(("http://", "https://")):
        from urllib.request import urlopen

        with urlopen(where, timeout=10) as response:  # noqa: S310 (the user names the URL)
            key: bytes = response.read()
            return key
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
        prog="python -m events.audit.verify",
        description=(
            f"Check a finished game's export ({FORMAT}) offline: canonical lines, the hash chain,"
            " every move re-decided by the rules, the deal commitments, the seeds every deal was"
            " derived from and, given a key or a head obtained elsewhere, the anchor."
        ),
        epilog=(
            "Exit status: 0 VERIFIED, every check passed and --key or --expect-head anchors the"
            " file; 3 CONSISTENT, NOT ANCHORED, every check passed but nothing anchors it"
            " (whoever rewrote the file could have recomputed every hash); 1 NOT VERIFIED, a"
            " check failed; 2 bad usage. With --database: 0 every chain holds, 1 a break."
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
    parser.add_argument(
        "--checkpoint",
        metavar="NOTE",
        help="a signed checkpoint of the public log obtained elsewhere (a file, or the URL of"
        " GET /log/checkpoint), opened with --key: the game's leaf must be in its tree",
    )
    parser.add_argument(
        "--proof",
        metavar="PROOF",
        help="with --checkpoint, the game's inclusion proof for the checkpoint's size (a file,"
        " or the URL of GET /log/proof/inclusion?game=ID&size=N) in place of the export's own",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object (verdict, exit_status, anchored, deals_fair, checks) instead"
        " of lines",
    )
    return parser


def main(argv: list[str]) -> int:
    parser = arguments()
    options = parser.parse_args(argv)
    if options.database is not None:
        given = (options.export, options.key, options.expect_head, options.json)
        if any(given) or options.checkpoint or options.proof:
            parser.error("--database checks the database alone: no export, --key, --expect-head,"
                         " --checkpoint, --proof or --json")  # fmt: skip
        return _main_database(parser, options.database or os.environ.get("DATABASE_URL", ""))
    if options.export is None:
        parser.error("give an export file, or --database")
    if options.checkpoint and not options.key:
        parser.error("--checkpoint is opened with the audit key: give --key too")
    if options.proof and not options.checkpoint:
        parser.error("--proof is a proof for the tree of a checkpoint: give --checkpoint too")
    try:
        with open(options.export, "rb") as file:
            raw = file.read()
        key = read_key(options.key) if options.key else None
        checkpoint = read_key(options.checkpoint) if options.checkpoint else None
        proof = read_key(options.proof) if options.proof else None
    except (OSError, ValueError) as error:  # ValueError: a URL urllib cannot read
        report = Report()
        report.add("FAIL", "read", str(error))
    else:
        report = examine(raw, key, options.expect_head, checkpoint, proof)
    _print(report, options.json)
    return report.exit_status


def _print(report: Report, as_json: bool) -> None:
    if as_json:
        print(canonical_json(report.to_json()))
        return
    for line in report.lines:
        print(line)
    print(report.verdict)


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
