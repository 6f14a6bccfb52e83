"""`python -m events.verify FILE`: checks an export (GET /games/{id}/export) offline.

No server and no database: the file, the hash chain rule and the domain's rules are enough.
Checks that every line is canonical JSON, that the hash chain recomputes (naming the version
where it breaks), that every deal matches the commitment published when it was dealt, and that
folding the events with the domain gives the header's type, status, seats, options, version
and result. Prints each check; exits 0 when all pass, 1 otherwise.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from domain.codec import canonical_json
from events.audit import check_chain, check_deals, fold_records
from events.export import EVENT_KEYS, FORMAT, HEADER_KEYS, header, seats_of


class Refused(Exception):
    """The file is not a complete, well-formed export."""


def parse(text: str) -> tuple[dict, list[dict]]:
    if not text.endswith("\n"):
        raise Refused("the last line does not end with a newline")
    values = []
    for number, raw in enumerate(text[:-1].split("\n"), start=1):
        try:
            value = json.loads(raw)
        except ValueError as error:
            raise Refused(f"line {number} is not JSON: {error}") from None
        if not isinstance(value, dict) or canonical_json(value) != raw:
            raise Refused(f"line {number} is not a canonical JSON object")
        values.append(value)
    head, *events = values
    if head.get("kind") != "header" or head.get("format") != FORMAT:
        raise Refused(f"line 1 is not a {FORMAT} header")
    if head.get("complete") is not True:
        raise Refused("an unfinished game's export is only a view: nothing here proves itself")
    if set(head) != HEADER_KEYS:
        raise Refused(f"the header's keys are not {sorted(HEADER_KEYS)}")
    for number, event in enumerate(events, start=2):
        if set(event) != EVENT_KEYS or event["kind"] != "event":
            raise Refused(f"line {number} is not an event line")
    return head, events


def verify(text: str, say: Callable[[str], None] = print) -> bool:
    try:
        head, events = parse(text)
    except Refused as error:
        say(f"FAIL format: {error}")
        return False
    say(f"ok   format: {FORMAT}, game {head['game_id']}, {len(events)} events")
    results = [_chain(head, events, say), _deals(events, say), _refold(head, events, say)]
    return all(results)


def _chain(head: dict, events: list[dict], say) -> bool:
    chain = check_chain(head["game_id"], events)
    if not chain.ok:
        say(f"FAIL chain: breaks at version {chain.first_bad_version}")
        return False
    if chain.head != head["chain_head"]:
        say(f"FAIL chain: the head is {chain.head}, the header says {head['chain_head']}")
        return False
    say(f"ok   chain: {len(events)} hashes recomputed, head {chain.head}")
    return True


def _deals(events: list[dict], say) -> bool:
    deals = check_deals(events)
    if not deals.ok or deals.checked == 0:
        say(f"FAIL deals: commitments of versions {deals.bad_versions or '(none found)'}")
        return False
    say(f"ok   deals: {deals.checked} deal(s) match their published commitments")
    return True


def _refold(head: dict, events: list[dict], say) -> bool:
    try:
        table = fold_records(events)
    except Exception as error:
        say(f"FAIL replay: the domain cannot fold the log: {type(error).__name__}: {error}")
        return False
    derived = header(head["game_id"], table, len(events), head["chain_head"])
    wrong = sorted(k for k in HEADER_KEYS if canonical_json(derived[k]) != canonical_json(head[k]))
    if wrong or table.status != "finished":
        say(f"FAIL replay: the folded game differs from the header in {wrong or ['status']}")
        return False
    winners = (derived["result"] or {}).get("winners")
    say(
        f"ok   replay: {table.game_type.id} folded from nothing to the recorded result"
        f" (winners {winners}, {len(seats_of(table))} seats)"
    )
    return True


def verify_bytes(raw: bytes, say: Callable[[str], None] = print) -> bool:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        say(f"FAIL format: not UTF-8: {error}")
        return False
    return verify(text, say)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m events.verify EXPORT.ndjson", file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as file:
            raw = file.read()
    except OSError as error:
        print(f"FAIL read: {error}")
        return 1
    ok = verify_bytes(raw)
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
