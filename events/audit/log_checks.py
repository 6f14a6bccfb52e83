"""The checks an auditor runs on a game's log, pure (no database), shared by GET /audit and the
offline verifier. They work on export records (events/audit/export.py `event_record`), so the server
and an offline copy are checked by the very same code.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.kit.cards import Card
from domain.kit.codec import deal_commitment
from events.audit.chain import ChainCheck, check_chain
from events.audit.redecide import RulesCheck, redecide

Record = dict[str, Any]


@dataclass(frozen=True)
class DealCheck:
    ok: bool
    checked: int  # deals whose commitment was recomputed
    bad_versions: list[int] = field(default_factory=list)  # of the DealCommitted that fail


def check_deals(records: Sequence[Record]) -> DealCheck:
    """The k-th DealCommitted against the k-th DeckSealed: sha256(salt || canonical deck)."""
    committed = [r for r in records if r["type"] == "DealCommitted"]
    sealed = [r for r in records if r["type"] == "DeckSealed"]
    bad = [c["version"] for c, s in zip(committed, sealed, strict=False) if not _matches(c, s)]
    # A commitment without its sealed deck (or the reverse) cannot be checked: a failure.
    extra = committed[len(sealed) :] + sealed[len(committed) :]
    bad += [r["version"] for r in extra]
    return DealCheck(not bad, min(len(committed), len(sealed)), sorted(bad))


def _matches(committed: Record, sealed: Record) -> bool:
    try:
        deck = tuple(Card.from_json(card) for card in sealed["data"]["deck"])
        if committed["data"].get("round") != sealed["data"].get("round"):
            return False
        return bool(
            deal_commitment(sealed["data"]["salt"], deck) == committed["data"]["commitment"]
        )
    except (AttributeError, KeyError, TypeError, ValueError):  # a malformed deal: not checked
        return False


@dataclass(frozen=True)
class LogCheck:
    """What the log proves by itself: its chain holds, and the rules give every event in it."""

    chain: ChainCheck
    rules: RulesCheck

    @property
    def ok(self) -> bool:
        return self.chain.ok and self.rules.ok


def check_log(
    game_id: str, chain_format: int, records: Sequence[Record], keep: Collection[int] = ()
) -> LogCheck:
    """The chain, then every decision re-decided (tables kept at the `keep` versions)."""
    rules = redecide(records, keep, game_id)
    return LogCheck(check_chain(chain_format, game_id, records), rules)
