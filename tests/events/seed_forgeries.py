"""What a forger can do to a finished seeded game's export, even one holding the server's key:
each forgery changes the records (header first) and returns them with the version an auditor
must name. The caller rehashes the chain and may sign it again (tests/events/exports.py)."""

from __future__ import annotations

import copy

from domain.kit.cards import Card
from domain.kit.codec import deal_commitment

Lines = list[dict]


def _last_deal(lines: Lines) -> int:
    return max(i for i, line in enumerate(lines) if line.get("type") == "DealCommitted")


def swapped_deal(lines: Lines) -> tuple[Lines, int]:
    """The last deal dealt in another order (its first and last cards swapped), committed to
    again with its salt, and each hand dealt from the new order: consistent, but not derived."""
    lines = copy.deepcopy(lines)
    start = _last_deal(lines)
    committed = lines[start]
    sealed = next(line for line in lines[start:] if line["type"] == "DeckSealed")
    deck = sealed["data"]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    cards = tuple(Card.from_json(card) for card in deck)
    committed["data"]["commitment"] = deal_commitment(sealed["data"]["salt"], cards)
    hands = [line for line in lines[start:] if line["type"] == "HandDealt"]
    taken = 0
    for hand, size in zip(hands, committed["data"]["hand_sizes"], strict=False):
        hand["data"]["cards"] = deck[taken : taken + size]
        taken += size
    return lines, committed["version"]


def client_seed_changed(lines: Lines) -> tuple[Lines, int]:
    """Seat 0's seed, as the table's creation records it, changed: the first deal no longer
    derives from the seeds on record."""
    lines = copy.deepcopy(lines)
    entry = lines[1]["data"]["seeding"]["client_seeds"][0]
    entry["seed"] = entry["seed"] + "!"
    first_deal = next(line for line in lines[1:] if line["type"] == "DealCommitted")
    return lines, first_deal["version"]


def server_seed_changed(lines: Lines) -> tuple[Lines, int]:
    """The revealed server seed replaced by another, which is not the one committed to."""
    lines = copy.deepcopy(lines)
    sealed = next(line for line in lines[1:] if line["type"] == "ServerSeedSealed")
    sealed["data"]["seed"] = "f" * 64
    return lines, sealed["version"]
