"""An audit of the rules: every decision of a game's log rebuilt from its records and decided
again by the domain, which must give exactly the recorded events, field by field.

Only the players' choices and the table's setup are taken from the log (domain/kit/origins.py), and,
for a table from before seeded deals, the shuffles and the random first leaders; the domain gives
everything else: a seeded table's deals from its seeds, every commitment and hand.
Pure (the domain and the standard library): used by GET /games/{id}/audit and by the offline
verifier, `python -m events.audit.verify`. Versions are assumed dense from 1: the chain check says
so.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.games import GAME_TYPES
from domain.kit.cards import Card
from domain.kit.codec import from_json
from domain.kit.decider import DomainError, Event
from domain.kit.game_type import GameType
from domain.shared.seeds import Seeding, SeedSetup, ServerSeedSealed
from domain.tables import table as tables
from events.audit.redecide_diff import difference
from events.audit.redecide_steps import (
    KEYS,
    UNREADABLE,
    Problem,
    decided,
    next_command,
    read,
    readable_prefix,
    version_of,
)

Record = dict[str, Any]  # {"version", "type", "seat", "visible_to", "data", ...others ignored}


@dataclass(frozen=True)
class RulesCheck:
    ok: bool
    table: tables.Table | None  # after the last record re-decided (None: not even TableCreated)
    events_checked: int  # records matched before the first problem (all when ok)
    first_bad_version: int | None
    problem: str | None  # a sentence starting "v<first_bad_version>:"
    tables_at: dict[int, tables.Table] = field(default_factory=dict)  # after each kept version


def redecide(
    records: Sequence[Record], keep: Collection[int] = (), game_id: str | None = None
) -> RulesCheck:
    """Re-decides the log from its first record; stops at the first problem. A seeded table's
    deals are derived from its game id too."""
    readable = readable_prefix(records)
    run = _Run(records[:readable], frozenset(keep), game_id)
    try:
        run.all()
        problem = None
    except Problem as found:
        problem = found
    if readable < len(records) and (problem is None or problem.version > readable):
        # Reached the record that is not one (a problem past it can only be "the log ends").
        problem = Problem(readable + 1, f"the record lacks {', '.join(KEYS)} or their types")
    return run.result(problem)


class _Run:
    """The table re-decided so far and how many records it has matched."""

    def __init__(
        self, records: Sequence[Record], keep: frozenset[int], game_id: str | None
    ) -> None:
        self.records = records
        self.keep = keep
        self.game_id = game_id
        self.table: tables.Table | None = None
        self.game_type: GameType | None = None
        self.matched = 0
        self.tables_at: dict[int, tables.Table] = {}

    @property
    def version(self) -> int:
        """The version of the next record to match (one past the last when the log ends)."""
        if self.matched < len(self.records):
            return version_of(self.records[self.matched])
        return version_of(self.records[-1]) + 1 if self.records else 1

    def all(self) -> None:
        self._create()
        while self.matched < len(self.records):
            self._decision()

    def _create(self) -> None:
        if not self.records or self.records[0]["type"] != "TableCreated":
            found = self.records[0]["type"] if self.records else "nothing"
            raise Problem(self.version, f"the log starts with {found}, not TableCreated")
        game_id, command = read(self.records[0], _creation)
        self.game_type = GAME_TYPES.get(game_id) if isinstance(game_id, str) else None
        if self.game_type is None:
            raise Problem(self.version, f"there is no game type {game_id!r}")
        command = replace(command, fixed_decks=self._fixed_decks(), seeding=self._seeding())
        try:
            produced = tables.decide_create(self.game_type, command)
        except DomainError as error:
            raise Problem(
                self.version, f"the table is against the rules: {error.message}"
            ) from None
        except UNREADABLE as error:  # options of the wrong type
            raise Problem(self.version, f"the table cannot be set up: {error!r}") from None
        self._match(produced)

    def _fixed_decks(self) -> tuple[tuple[Card, ...], ...]:
        if len(self.records) < 2 or self.records[1]["type"] != "FixedDecksChosen":
            return ()
        chosen: tables.FixedDecksChosen = read(
            self.records[1], lambda data: from_json(tables.FixedDecksChosen, data)
        )
        return chosen.decks

    def _seeding(self) -> SeedSetup | None:
        """The seeds the table was created with: the published ones and the server's, which
        ServerSeedSealed holds (after FixedDecksChosen, if any). The rules then recompute the
        commitment: a server seed that is not the committed one fails at version 1."""
        seeding = read(self.records[0], lambda data: from_json(Seeding | None, data.get("seeding")))
        if seeding is None:
            return None
        sealed = next((r for r in self.records[1:3] if r["type"] == "ServerSeedSealed"), None)
        if sealed is None:
            raise Problem(2, "the table has seeds, but its ServerSeedSealed is not in the log")
        server_seed = read(sealed, lambda data: from_json(ServerSeedSealed, data).seed)
        return SeedSetup(server_seed, seeding.committed_in_advance, seeding.client_seeds)

    def _decision(self) -> None:
        assert self.table is not None  # _create set it
        if self.table.status == "finished":
            found = self.records[self.matched]["type"]
            raise Problem(self.version, f"the game is over, yet the log goes on with {found}")
        command = next_command(self.table, self.records, self.matched, self.game_id)
        self._match(decided(self.table, command, self.version))

    def _match(self, produced: list[Event]) -> None:
        """Each event against the next record; the table evolves with the events the rules give
        (equal to the recorded ones), so no recorded event is decoded."""
        for event in produced:
            if self.matched == len(self.records):
                said = f"the log ends, the rules give {type(event).__name__} next"
                raise Problem(self.version, said)
            record = self.records[self.matched]
            if (different := difference(record, event)) is not None:
                raise Problem(self.version, different)
            self.table, self.matched = self._evolved(event), self.matched + 1
            if version_of(record) in self.keep:
                self.tables_at[version_of(record)] = self.table

    def _evolved(self, event: Event) -> tables.Table:
        if self.table is None:  # the TableCreated the rules give
            assert self.game_type is not None and isinstance(event, tables.TableCreated)
            return tables.create(self.game_type, event)
        return tables.evolve(self.table, event)

    def result(self, problem: Problem | None) -> RulesCheck:
        return RulesCheck(
            ok=problem is None,
            table=self.table,
            events_checked=self.matched,
            first_bad_version=None if problem is None else problem.version,
            problem=None if problem is None else problem.message,
            tables_at=self.tables_at,
        )


def _creation(data: dict[str, Any]) -> tuple[str, tables.CreateTable]:
    """The game type and the CreateTable a TableCreated records (fixed decks come next)."""
    created = from_json(tables.TableCreated, data)
    return created.game_type, tables.CreateTable(created.seats, dict(created.options))
