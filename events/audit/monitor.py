"""`python -m events.audit.monitor URL --state DIR`: watches a server's public log of finished
games, so that nobody, the operator included, rewrites a finished game or shows two histories
unseen.

Each run, against what DIR remembers (events/audit/monitor_state.py):
1. the audit key (GET /audit-key) is the one trusted on the first run;
2. the checkpoint (GET /log/checkpoint) is signed by it;
3. its tree extends the remembered one (GET /log/proof/consistency, RFC 9162 §2.1.4.2);
4. the new entries (GET /log/entries), appended to the remembered tree, hash to its root;
5. each new leaf is its game's head: the game's export verifies with the key and ends there
   (with `--recheck`, every leaf, once the remembered entries still hash to the remembered root).
Then DIR remembers the new checkpoint. Exit status 0 when everything holds; 1, with a plain
message, when anything does not (a split view: a remembered checkpoint the server's tree does
not extend), or when the server cannot be read: never a traceback. 2 is bad usage.
docs/audit.md section 10 says what this proves.
"""

from __future__ import annotations

import argparse
import base64
import sys
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.audit import monitor_state as state
from events.audit.export_log import hash_from
from events.audit.log_client import SECONDS, SMALL, LogServer, Unreliable
from events.audit.log_format import EMPTY_ROOT, Checkpoint, NoteError, leaf_hash, open_checkpoint
from events.audit.log_frontier import Frontier
from events.audit.log_verify import verify_consistency
from events.audit.monitor_leaves import Entry, entries, leaf_problem
from events.audit.signing import key_id, public_key_from, raw_public_key

Say = Callable[[str], None]
SHOWN_PROBLEMS = 20  # bad leaves named one by one; the rest are counted


class Caught(Exception):
    """Something the log's promises rule out: the reason, plainly."""


class Monitor:
    def __init__(
        self, server: LogServer, directory: Path, say: Say, progress: Say, recheck: bool = False
    ) -> None:
        self.server, self.directory = server, directory
        self.say, self.progress = say, progress
        self.recheck = recheck  # every leaf's game again, not only the new ones

    def run(self) -> None:
        remembered = state.load(self.directory)
        key = self.trusted_key(remembered.key)
        old = self.remembered_checkpoint(remembered, key)
        note = self.server.get("/log/checkpoint", SMALL)
        new = self.checkpoint(note, key, old)
        self.consistent(old, new, note)
        frontier = Frontier(remembered.frontier.size, list(remembered.frontier.hashes))
        older = self.remembered_leaves(old) if self.recheck else []
        self.leaves(frontier, new, base64.b64encode(raw_public_key(key)), older)
        state.save_tree(self.directory, note, frontier)
        self.say(f"OK: the log is consistent at {new.size} leaves; {self.directory} remembers it")

    def trusted_key(self, trusted: Ed25519PublicKey | None) -> Ed25519PublicKey:
        served = self.server.get("/audit-key", SMALL)
        try:
            key = public_key_from(served)
        except (ValueError, KeyError, TypeError, UnicodeError):
            raise Unreliable("GET /audit-key is not an Ed25519 public key") from None
        if trusted is None:
            state.save_key(self.directory, key)
            self.say(f"key: trusting {key_id(key)}, the first key this monitor saw")
        elif raw_public_key(key) != raw_public_key(trusted):
            raise Caught(
                f"the server's audit key is now {key_id(key)}, not the key {key_id(trusted)}"
                f" trusted first ({self.directory / state.KEY_FILE}): a swapped key can sign"
                " any history"
            )
        else:
            self.say(f"key: {key_id(key)}, the key trusted since the first run")
        return key

    def remembered_checkpoint(
        self, remembered: state.Remembered, key: Ed25519PublicKey
    ) -> Checkpoint:
        if remembered.note is None:
            return Checkpoint("", 0, EMPTY_ROOT)
        try:
            old = open_checkpoint(remembered.note, key)
        except NoteError as error:
            raise state.StateError(f"the remembered checkpoint does not open: {error}") from None
        frontier = remembered.frontier
        if frontier.size != old.size or frontier.root() != old.root:
            raise state.StateError(f"{self.directory} does not hold together: start afresh")
        return old

    def checkpoint(self, note: bytes, key: Ed25519PublicKey, old: Checkpoint) -> Checkpoint:
        try:
            new = open_checkpoint(note, key)
        except NoteError as error:
            raise Caught(f"the checkpoint served is not signed by the audit key: {error}") from None
        if old.origin and new.origin != old.origin:
            raise Caught(f"the checkpoint is of the log {new.origin!r}, not {old.origin!r}")
        root = base64.b64encode(new.root).decode("ascii")
        self.say(f"checkpoint: {new.origin}, {new.size} leaves, root {root}, signed by the key")
        return new

    def consistent(self, old: Checkpoint, new: Checkpoint, note: bytes) -> None:
        if old.size == 0:  # the empty tree is a prefix of every tree
            remembered = "the remembered tree was empty" if old.origin else "nothing remembered yet"
            self.say(f"consistency: {remembered}, every leaf is new")
            return
        if new.size > old.size:
            hashes = self.consistency_proof(old.size, new.size)
            if verify_consistency(old.size, new.size, old.root, new.root, hashes):
                extends = f"the tree of {new.size} leaves extends the remembered tree of"
                self.say(f"consistency: {extends} {old.size}")
                return
        elif new.size == old.size and new.root == old.root:
            self.say(f"consistency: the same tree of {new.size} leaves as remembered")
            return
        kept = state.keep_evidence(self.directory, note)
        raise Caught(
            f"split view: the server's signed tree of {new.size} leaves does not extend the"
            f" remembered tree of {old.size} (root {base64.b64encode(old.root).decode()}): the"
            f" log was rewritten, truncated, or shows others another history; the server's"
            f" checkpoint is kept as evidence in {kept}"
        )

    def consistency_proof(self, first: int, second: int) -> list[bytes]:
        proof = self.server.json("/log/proof/consistency", **{"from": first, "to": second})
        hashes = proof.get("hashes")
        if not isinstance(hashes, list) or len(hashes) > 64:
            raise Unreliable("GET /log/proof/consistency did not send a list of hashes")
        try:
            return [hash_from(h) for h in hashes]
        except ValueError as error:
            raise Unreliable(f"GET /log/proof/consistency: {error}") from None

    def _which(self) -> str:
        return "leaves" if self.recheck else "new leaves"

    def remembered_leaves(self, old: Checkpoint) -> list[Entry]:
        """The entries of the remembered tree, as the server serves them now: they must still
        hash to its root."""
        again = Frontier()
        older = list(entries(self.server, 0, old.size))
        for entry in older:
            again.append(leaf_hash(entry.leaf))
        if again.root() != old.root:
            raise Caught(
                f"the entries of {_leaves(0, old.size)} the server sends now do not hash to the"
                " remembered root: the log was rewritten"
            )
        if older:
            self.say(f"entries: {_leaves(0, old.size)} still hash to the remembered root")
        return older

    def leaves(self, frontier: Frontier, new: Checkpoint, key: bytes, older: list[Entry]) -> None:
        """The new entries hash, with the remembered tree, to the new root; then each is its
        game's verified head (and each of `older` too)."""
        first = frontier.size
        fresh = []
        for entry in entries(self.server, first, new.size):
            frontier.append(leaf_hash(entry.leaf))
            fresh.append(entry)
        if frontier.root() != new.root:
            raise Caught(
                f"the entries of {_leaves(first, new.size)} the server sent, appended to the"
                " remembered tree, do not hash to the checkpoint's root"
            )
        if fresh:
            hashed = f"{_leaves(first, new.size)} and the remembered tree hash to its root"
            self.say(f"entries: {hashed}")
        problems = self.games(older + fresh, key)
        if problems:
            listed = "\n".join(problems[:SHOWN_PROBLEMS])
            more = len(problems) - SHOWN_PROBLEMS
            listed += f"\n... and {more} more" if more > 0 else ""
            said = f"{len(problems)} of {len(older + fresh)} {self._which()} are not their games'"
            said += " heads"
            raise Caught(f"{said}:\n{listed}")

    def games(self, checked: list[Entry], key: bytes) -> list[str]:
        problems: list[str] = []
        shown, which = time.monotonic(), self._which()
        if len(checked) > 10:
            self.progress(f"checking {len(checked)} {which} against their games' exports")
        for done, entry in enumerate(checked, start=1):
            problem = leaf_problem(self.server, entry, key)
            if problem is not None:
                problems.append(problem)
            if time.monotonic() - shown >= 2:
                shown = time.monotonic()
                self.progress(f"{done}/{len(checked)} leaves checked, {len(problems)} wrong")
        if checked and not problems:
            self.say(f"games: each of the {len(checked)} {which} is its game's verified head")
        return problems


def _leaves(start: int, end: int) -> str:
    return f"leaf {start}" if end == start + 1 else f"leaves {start} to {end - 1}"


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m events.audit.monitor",
        description=(
            "Check a Cardroom server's public log of finished games against what this monitor"
            " saw before: the key, the signed checkpoint, its consistency with the remembered"
            " one, the new entries, and each new leaf against its game's verified export."
        ),
        epilog="Exit status: 0 everything holds; 1 something does not, or the server cannot be"
        " read; 2 bad usage.",
    )
    parser.add_argument("url", help="the server, e.g. https://cardroom.example")
    parser.add_argument(
        "--state",
        required=True,
        metavar="DIR",
        help="where the monitor keeps the key it trusted first and the last checkpoint it"
        " verified (created on the first run)",
    )
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="check every leaf's game again, not only the new ones: a game rewritten after"
        " this monitor first checked it is caught too (one export per leaf)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=SECONDS,
        metavar="SECONDS",
        help=f"the most any one request may take (default {SECONDS:g})",
    )
    return parser


def main(argv: list[str]) -> int:
    options = arguments().parse_args(argv)
    server = LogServer(options.url, options.timeout)
    monitor = Monitor(server, Path(options.state), print, _to_stderr, options.recheck)
    try:
        monitor.run()
    except Caught as caught:
        print(f"FAIL: {caught}")
        return 1
    except (Unreliable, state.StateError) as failure:
        print(f"FAIL: {failure}")
        return 1
    except Exception as error:  # a hostile answer nothing above foresaw: still no traceback
        print(f"FAIL: the monitor stopped on an answer it did not expect: {error!r}"[:2000])
        return 1
    return 0


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
