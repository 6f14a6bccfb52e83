"""Every check of a finished game's export, offline: the format, the chain, the rules, the
result, the anchor, the game's place in the public log, the deal commitments and the seeds,
and whether the deals are fair; the verdict they add up to is events/audit/verdicts.py's.
docs/audit.md says what each check proves.
"""

from __future__ import annotations

from typing import Any

from domain.kit.codec import canonical_json
from events.audit.chain import GENESIS
from events.audit.export import derived_header, seats_of
from events.audit.export_file import Export, Refused, parse
from events.audit.log_checks import check_deals, check_log
from events.audit.log_inclusion_check import check_in_log
from events.audit.seed_check import SeedCheck, check_seeds
from events.audit.signing import key_id, public_key_from, signature_is_valid
from events.audit.verdicts import Report


def examine(
    raw: bytes,
    key: str | bytes | None = None,
    expect_head: str | None = None,
    checkpoint: bytes | None = None,
    proof: bytes | None = None,
) -> Report:
    """Every check on an export's bytes: see `examine_text`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        report = Report()
        report.add("FAIL", "format", f"not UTF-8: {error}")
        return report
    return examine_text(text, key, expect_head, checkpoint, proof)


def examine_text(
    text: str,
    key: str | bytes | None = None,
    expect_head: str | None = None,
    checkpoint: bytes | None = None,
    proof: bytes | None = None,
) -> Report:
    """Every check on an export; `key` is the public key (PEM, /audit-key JSON or base64),
    `expect_head` a head obtained elsewhere ([VERSION:]HEX), `checkpoint` a signed note of the
    public log obtained elsewhere, `proof` the game's inclusion proof in its tree (the JSON of
    GET /log/proof/inclusion), in place of the export's own."""
    report = Report()
    try:
        export = parse(text)
    except Refused as error:
        report.add("FAIL", "format", str(error))
        return report
    head = report.header = export.header
    report.add(
        "ok", "format", f"{head['format']}, game {head['game_id']}, {len(export.events)} events"
    )
    rules_ok = _chain_and_rules(export, report)
    _anchor(export, report, key, expect_head)
    check_in_log(export, report, key, checkpoint, proof)
    deals_ok = _deals(export, report)
    seeds = _seeds(export, report)
    report.deals_fair = _fairness(seeds, rules_ok and deals_ok, report)
    return report


def _chain_and_rules(export: Export, report: Report) -> bool:
    """Adds the chain's line, the rules' and the result's; True when the rules hold."""
    head, events = export.header, export.events
    log = check_log(head["game_id"], head["chain_format"], events)
    if not log.chain.ok:
        report.add("FAIL", "chain", f"breaks at version {log.chain.first_bad_version}")
    elif log.chain.head != head["chain_head"]:
        said = f"the head is {log.chain.head}, the header says {head['chain_head']}"
        report.add("FAIL", "chain", said)
    else:
        report.add("ok", "chain", f"{len(events)} hashes recomputed, head {log.chain.head}")
    if not log.rules.ok:
        return report.add("FAIL", "rules", str(log.rules.problem))
    said = f"all {log.rules.events_checked} events re-decided from the players' choices"
    report.add("ok", "rules", said)
    return _result(export, log.rules.table, report)


def _result(export: Export, table: Any, report: Report) -> bool:
    head = export.header
    derived = derived_header(head["game_id"], table, len(export.events))
    wrong = sorted(k for k, v in derived.items() if canonical_json(v) != canonical_json(head[k]))
    if wrong or table.status != "finished":
        said = f"the re-decided game differs from the header in {wrong or ['status']}"
        return report.add("FAIL", "result", said)
    winners = (derived["result"] or {}).get("winners")
    said = (
        f"{table.game_type.id} re-decided to the header's result"
        f" (winners {winners}, {len(seats_of(table))} seats)"
    )
    return report.add("ok", "result", said)


def _anchor(export: Export, report: Report, key: str | bytes | None, expect: str | None) -> None:
    if expect is not None:
        _pinned_head(export, report, expect)
    if key is None:
        if expect is None:
            said = "no --key given, so nothing anchors this chain (docs/audit.md)"
            report.add("skip", "signature", said)
        return
    _signature(export, report, key)


def _pinned_head(export: Export, report: Report, expect: str) -> None:
    version, _, wanted = expect.lower().rpartition(":")
    at = int(version) if version.isdigit() else len(export.events)
    found = export.events[at - 1]["hash"] if 0 < at <= len(export.events) else None
    if found != wanted:
        said = f"the export's hash at version {at} is {found}, expected {wanted}"
        report.add("FAIL", "head", said)
    else:
        report.add("ok", "head", f"the hash at version {at} is the one given with --expect-head")


def _signature(export: Export, report: Report, key: str | bytes) -> None:
    head = export.header
    try:
        public_key = public_key_from(key)
    except ValueError as error:
        report.add("FAIL", "signature", f"unreadable key: {error}")
        return
    if head["key_id"] != key_id(public_key):
        said = f"the header names key {head['key_id']}, the key given is {key_id(public_key)}"
        report.add("FAIL", "signature", said)
        return
    args = (head["game_id"], head["version"], head["chain_head"], head["head_signature"])
    if head["chain_head"] == GENESIS or not signature_is_valid(public_key, *args):
        report.add("FAIL", "signature", "the head's signature does not verify with the given key")
        return
    report.add("ok", "signature", f"the head is signed by key {head['key_id']}")


def _deals(export: Export, report: Report) -> bool:
    deals = check_deals(export.events)
    if not deals.ok or deals.checked == 0:
        said = f"commitments of versions {deals.bad_versions or '(none found)'}"
        return report.add("FAIL", "deals", said)
    return report.add("ok", "deals", f"{deals.checked} deal(s) match their published commitments")


def _seeds(export: Export, report: Report) -> SeedCheck:
    seeds = check_seeds(export.header["game_id"], export.events)
    if not seeds.seeded:
        said = "the table has no seeds (created before seeded deals): the server shuffled"
        report.add("skip", "seeds", said)
    elif not seeds.ok:
        report.add("FAIL", "seeds", str(seeds.problem))
    else:
        said = f"the server seed is the committed one; {seeds.deals} deal(s) derived from the seeds"
        report.add("ok", "seeds", said)
    return seeds


def _fairness(seeds: SeedCheck, rules_and_deals_ok: bool, report: Report) -> bool | None:
    """Reported, not checked: a game may verify and still not be fair."""
    if seeds.fixed_decks:
        report.add("info", "fair", "n/a: fixed test decks were chosen (GAMES_ALLOW_FIXED_DECK)")
        return None
    if not rules_and_deals_ok:
        report.add("info", "fair", "no: the rules or the deal commitments do not check")
        return False
    fair = seeds.ok and seeds.fair
    report.add("info", "fair", "yes: " + _why(seeds) if fair else "no: " + _why(seeds))
    return fair


def _why(seeds: SeedCheck) -> str:
    if not seeds.seeded:
        return "the table has no seeds (created before seeded deals)"
    if not seeds.ok:
        return "its seeds do not check"
    if not seeds.committed_in_advance:
        return "the server committed to its seed only as the table was created"
    if not seeds.fair_seats:
        return "no seat's player gave a seed after the server's commitment"
    seats = ", ".join(map(str, seeds.fair_seats))
    return f"seat(s) {seats} gave their seeds after the server committed to its own"
