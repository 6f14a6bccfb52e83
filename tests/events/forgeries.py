"""What a forger without the signing key can do to a finished game's log: each forgery takes the
records of a genuine export (header first) and returns them changed, with the version that an
auditor must name. The caller rehashes the chain (tests/events/exports.py `rechained`)."""

from __future__ import annotations

import copy
from collections.abc import Callable

Lines = list[dict]
Forgery = Callable[[Lines], tuple[Lines, int]]


def _events(lines: Lines) -> list[dict]:
    return lines[1:]


# Cards each seat gives from its own hand, and turns taken in a fixed order (not simultaneous).
FROM_HAND = {"CardPlayed", "RiverCardCommitted"}
IN_TURN = {"CardPlayed", "CardPickedUp"}


def _adjacent_choices(lines: Lines, kinds: set[str]) -> tuple[dict, dict]:
    """Two events in a row of one of `kinds`, by different seats."""
    events = _events(lines)
    for first, second in zip(events[10:], events[11:], strict=False):
        if first["type"] in kinds and second["type"] == first["type"]:
            if first["seat"] != second["seat"]:
                return first, second
    raise AssertionError("no two adjacent plays by different seats")


def card_changed(lines: Lines) -> tuple[Lines, int]:
    """A card played becomes the card the next seat played: one the first seat did not hold."""
    lines = copy.deepcopy(lines)
    first, second = _adjacent_choices(lines, FROM_HAND)
    first["data"]["card"] = copy.deepcopy(second["data"]["card"])
    return lines, first["version"]


def event_dropped(lines: Lines) -> tuple[Lines, int]:
    lines = copy.deepcopy(lines)
    first, _ = _adjacent_choices(lines, IN_TURN)
    lines.remove(first)
    return lines, first["version"]


def events_swapped(lines: Lines) -> tuple[Lines, int]:
    lines = copy.deepcopy(lines)
    first, second = _adjacent_choices(lines, IN_TURN)
    at = lines.index(first)
    lines[at], lines[at + 1] = second, first
    return lines, first["version"]


def winner_changed(lines: Lines) -> tuple[Lines, int]:
    lines = copy.deepcopy(lines)
    ended = next(e for e in _events(lines) if e["type"] == "GameEnded")
    seats = len(lines[0]["seats"])
    winners = [(seat + 1) % seats for seat in ended["data"]["winners"]] or [0]
    losers = [seat for seat in range(seats) if seat not in winners]
    ended["data"]["winners"], ended["data"]["losers"] = winners, losers
    lines[0]["result"]["winners"], lines[0]["result"]["losers"] = winners, losers
    return lines, ended["version"]


def secret_made_public(lines: Lines) -> tuple[Lines, int]:
    lines = copy.deepcopy(lines)
    sealed = next(e for e in _events(lines) if e["type"] == "DeckSealed")
    sealed["visible_to"], sealed["nonce"] = None, None
    return lines, sealed["version"]


def derived_altered(lines: Lines) -> tuple[Lines, int]:
    """A trick given to another seat, or (Saint Poker) a round's points changed."""
    lines = copy.deepcopy(lines)
    seats = len(lines[0]["seats"])
    for event in _events(lines):
        if event["type"] == "TrickWon":
            event["data"]["seat"] = event["seat"] = (event["data"]["seat"] + 1) % seats
            return lines, event["version"]
        if event["type"] == "RoundScored" and "points" in event["data"]:
            event["data"]["points"][0] += 1
            return lines, event["version"]
    raise AssertionError("no derived event to alter")


FORGERIES: dict[str, Forgery] = {
    "card changed": card_changed,
    "event dropped": event_dropped,
    "events swapped": events_swapped,
    "winner changed": winner_changed,
    "secret made public": secret_made_public,
    "derived event altered": derived_altered,
}
