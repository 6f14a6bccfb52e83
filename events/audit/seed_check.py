"""The check of a finished game's seeds, on export records (pure; GET /audit and the offline
verifier share it): the revealed server seed is the one committed to at the table's creation,
and every deal is the one derived from it and the seats' seeds (docs/audit.md, section 7).
Then whether the deals are fair: the commitment was given out before the table, at least one
seat's player gave a seed after it, and no deal was a fixed test deck.

The rules (events/audit/redecide.py) check the same deals again, with the rest of the game; this
check needs no rules, so that it says exactly what an outsider's verifier can say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from domain.kit.cards import Card
from domain.kit.codec import canonical_json
from domain.shared.deal_derivation import derive_deal
from domain.shared.seeds import PLAYER, SERVER, SERVER_SEED, seed_commitment

Record = dict[str, Any]
UNREADABLE = (LookupError, TypeError, ValueError, AttributeError)


class _Bad(Exception):
    def __init__(self, version: int, message: str) -> None:
        super().__init__(message)
        self.version = version
        self.message = f"v{version}: {message}"


@dataclass(frozen=True)
class SeedCheck:
    seeded: bool  # the table has seeds (tables from before seeded deals have none)
    ok: bool  # the seed matches its commitment and every deal is the derived one
    deals: int = 0  # deals derived and compared
    fair: bool = False
    committed_in_advance: bool = False  # before the table was created
    fair_seats: tuple[int, ...] = ()  # seats whose player gave a seed after the commitment
    fixed_decks: bool = False  # test decks were chosen: never fair
    problem: str | None = None  # "v<version>: ..."
    bad_versions: list[int] = field(default_factory=list)


def check_seeds(game_id: str, records: Sequence[Record]) -> SeedCheck:
    fixed = any(record["type"] == "FixedDecksChosen" for record in records)
    try:
        return _check(game_id, records, fixed)
    except _Bad as bad:
        said = bad.message
        return SeedCheck(True, False, fixed_decks=fixed, problem=said, bad_versions=[bad.version])


def _check(game_id: str, records: Sequence[Record], fixed_decks: bool) -> SeedCheck:
    seeding = _data(records[0]).get("seeding") if records else None
    if seeding is None:
        return SeedCheck(False, True, fixed_decks=fixed_decks)
    if not _is_seeding(seeding):
        raise _Bad(1, "the table's seeding is not {commitment, committed_in_advance, client_seeds}")
    server_seed = _server_seed(records, seeding)
    seeds = _Seats(seeding)
    deals = 0
    fixed: list[Any] = []
    for i, record in enumerate(records):
        kind = record["type"]
        if kind == "FixedDecksChosen":
            decks = _data(record).get("decks")
            fixed = decks if isinstance(decks, list) else []
        elif kind == "SeatJoined":
            seeds.joined(record)
        elif kind == "SeatLeft" and deals == 0:
            seeds.left(record)
        elif kind == "DealCommitted":
            deals += 1
            given = fixed[deals - 1] if deals <= len(fixed) else None
            _check_deal(game_id, records, i, deals, server_seed, seeds, given)
    if deals == 0:
        raise _Bad(len(records), "the log has no deal")
    fair_seats = seeds.fair_seats()
    in_advance = seeding["committed_in_advance"]
    fair = bool(in_advance and fair_seats and not fixed_decks)
    return SeedCheck(True, True, deals, fair, in_advance, fair_seats, fixed_decks)


def _data(record: Record) -> dict[str, Any]:
    data = record.get("data")
    return data if isinstance(data, dict) else {}


def _is_seeding(seeding: object) -> bool:
    return (
        isinstance(seeding, dict)
        and isinstance(seeding.get("commitment"), str)
        and type(seeding.get("committed_in_advance")) is bool
        and isinstance(entries := seeding.get("client_seeds"), list)
        and all(entry is None or _is_seed(entry) for entry in entries)
    )


def _is_seed(entry: object) -> TypeGuard[dict[str, Any]]:
    """`{"by": "player" or "server", "seed": <text>}`."""
    return (
        isinstance(entry, dict)
        and entry.get("by") in (PLAYER, SERVER)
        and isinstance(entry.get("seed"), str)
    )


def _server_seed(records: Sequence[Record], seeding: dict[str, Any]) -> str:
    """The revealed seed, which must be the committed one."""
    sealed = next((r for r in records[1:3] if r["type"] == "ServerSeedSealed"), None)
    if sealed is None:
        raise _Bad(2, "the table has seeds, but no ServerSeedSealed follows its creation")
    seed = _data(sealed).get("seed")
    if not isinstance(seed, str) or SERVER_SEED.fullmatch(seed) is None:
        raise _Bad(sealed["version"], "the server seed is not 64 lowercase hex digits")
    if seed_commitment(seed) != seeding["commitment"]:
        raise _Bad(sealed["version"], "the revealed server seed is not the one committed to")
    return seed


class _Seats:
    """Each seat's seed as the log gives it, and whether its player gave it after the
    commitment (at a join always, at the creation if the commitment came before it)."""

    def __init__(self, seeding: dict[str, Any]) -> None:
        entries, in_advance = seeding["client_seeds"], seeding["committed_in_advance"]
        self.seeds = [None if entry is None else entry["seed"] for entry in entries]
        self.after = [in_advance and _by_player(entry) for entry in entries]

    def joined(self, record: Record) -> None:
        seat, entry = self._seat(record), _data(record).get("client_seed")
        if not _is_seed(entry):
            raise _Bad(record["version"], "a seat joined a seeded table without a seed")
        self.seeds[seat], self.after[seat] = entry["seed"], _by_player(entry)

    def left(self, record: Record) -> None:
        """Before the first deal, a seat left opens again, without a seed."""
        seat = self._seat(record)
        self.seeds[seat], self.after[seat] = None, False

    def _seat(self, record: Record) -> int:
        seat = _data(record).get("seat")
        if type(seat) is not int or not 0 <= seat < len(self.seeds):
            raise _Bad(record["version"], "the event names a seat the table does not have")
        return seat

    def fair_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, after in enumerate(self.after) if after)


def _by_player(entry: object) -> bool:
    return isinstance(entry, dict) and entry.get("by") == PLAYER


def _check_deal(
    game_id: str,
    records: Sequence[Record],
    i: int,
    number: int,
    server_seed: str,
    seeds: _Seats,
    fixed: object,
) -> None:
    """The `number`-th deal, starting at records[i], against the one derived for it (or the
    fixed test deck, for a deal that used one): deck, salt and random first leader."""
    committed = records[i]
    version, data = committed["version"], _data(committed)
    sealed = next((r for r in records[i + 1 :] if r["type"] == "DeckSealed"), None)
    if data.get("round") != number or sealed is None:
        raise _Bad(version, f"deal {number} is not round {number} with its DeckSealed")
    shown: Any = _data(sealed).get("deck")
    try:
        cards = [Card.from_json(card) for card in shown]
        derived = derive_deal(server_seed, seeds.seeds, game_id, number, cards)
    except UNREADABLE as error:
        raise _Bad(version, f"the deal cannot be derived: {error!r}") from None
    wanted = [card.to_json() for card in derived.deck] if fixed is None else fixed
    if canonical_json(shown) != canonical_json(wanted):
        raise _Bad(version, f"deal {number}'s deck is not the one derived from the seeds")
    if _data(sealed).get("salt") != derived.salt:
        raise _Bad(version, f"deal {number}'s salt is not the one derived from the seeds")
    leader = data.get("first_leader")
    if leader is not None and _leader_option(records) is None and leader != derived.first_leader:
        raise _Bad(version, f"deal {number}'s first leader is not the one derived from the seeds")


def _leader_option(records: Sequence[Record]) -> object:
    options = _data(records[0]).get("options")
    return options.get("first_leader") if isinstance(options, dict) else None
