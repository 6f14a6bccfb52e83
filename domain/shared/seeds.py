"""The seeds a table's deals are derived from (G6): the server's secret seed, committed to by its
hash before any client seed counts, and one public seed per seat (a bot has none).

The server seed is drawn outside the domain and arrives in the table's creation; it stays in
`ServerSeedSealed`, which nobody may see until the game ends. The seats' seeds are public from
the moment they are given: in the creation for the seats named there, in `SeatJoined` for a
seat taken later. A seat that gives none gets one the server draws, marked `by: "server"`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from typing import Any

from domain.kit.decider import Event, InvalidSetup
from domain.shared.tuples import set_at

PLAYER, SERVER = "player", "server"  # who gave a seat's seed
SERVER_SEED = re.compile(r"[0-9a-f]{64}")  # 32 bytes
CLIENT_SEED = re.compile(r"[\x20-\x7e]{1,64}")  # printable ASCII: one spelling in every language


def seed_commitment(server_seed: str) -> str:
    """SHA-256 of the server seed's 32 bytes, in hex: published before any client seed counts."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


@dataclass(frozen=True, slots=True)
class ClientSeed:
    """A seat's seed, public once given; `by` says who gave it: the seat's player, or the
    server when the player gave none."""

    seed: str
    by: str


@dataclass(frozen=True, slots=True)
class Seeding:
    """What a table's creation publishes of its seeds. `committed_in_advance`: the commitment
    was given out before the table was created (POST /seed-commitments), so the seeds of the
    creation came after it."""

    commitment: str
    committed_in_advance: bool
    client_seeds: tuple[ClientSeed | None, ...]  # by seat; None for bots and open seats


@dataclass(frozen=True, slots=True)
class SeedSetup:
    """The seeds a new table is created with (part of its CreateTable command)."""

    server_seed: str = field(repr=False)
    committed_in_advance: bool
    client_seeds: tuple[ClientSeed | None, ...]


@dataclass(frozen=True, slots=True)
class ServerSeedSealed(Event):
    """The server's seed: seen by nobody until the game ends, when it proves the deals."""

    seed: str = field(repr=False)

    def visible_to(self) -> tuple[int, ...] | None:
        return ()


@dataclass(frozen=True, slots=True)
class TableSeeds:
    """A table's seeds as its events have given them. `after_commitment[seat]`: the seat's
    player gave its seed after the server committed to its own."""

    commitment: str
    committed_in_advance: bool
    client_seeds: tuple[ClientSeed | None, ...]
    after_commitment: tuple[bool, ...]
    server_seed: str | None = field(default=None, repr=False)


def check_client_seed(seed: ClientSeed | None) -> None:
    if seed is None:
        return
    if not isinstance(seed.seed, str) or CLIENT_SEED.fullmatch(seed.seed) is None:
        raise InvalidSetup("a client seed is 1 to 64 printable ASCII characters")
    if seed.by not in (PLAYER, SERVER):
        raise InvalidSetup(f"a client seed is given by the {PLAYER} or the {SERVER}")


def seeding_of(setup: SeedSetup, humans: tuple[bool, ...]) -> Seeding:
    """The published part of a new table's seeds; every human seat has one, no other seat."""
    if not isinstance(setup.server_seed, str) or SERVER_SEED.fullmatch(setup.server_seed) is None:
        raise InvalidSetup("the server seed is 64 lowercase hex digits")
    if len(setup.client_seeds) != len(humans):
        raise InvalidSetup("a table has one client seed entry per seat")
    for seed, human in zip(setup.client_seeds, humans, strict=True):
        if (seed is not None) != human:
            raise InvalidSetup("every human seat has a client seed, and no other seat")
        check_client_seed(seed)
    commitment = seed_commitment(setup.server_seed)
    return Seeding(commitment, setup.committed_in_advance, setup.client_seeds)


def table_seeds(seeding: Seeding) -> TableSeeds:
    """A new table's seeds: those of its creation count as given after the commitment only
    when the commitment was given out before."""
    after = tuple(
        seeding.committed_in_advance and seed is not None and seed.by == PLAYER
        for seed in seeding.client_seeds
    )
    return TableSeeds(seeding.commitment, seeding.committed_in_advance, seeding.client_seeds, after)


def joined(seeds: TableSeeds, seat: int, seed: ClientSeed) -> TableSeeds:
    """A seat taken after the creation, whose commitment was public by then."""
    return replace(
        seeds,
        client_seeds=set_at(seeds.client_seeds, seat, seed),
        after_commitment=set_at(seeds.after_commitment, seat, seed.by == PLAYER),
    )


def reopened(seeds: TableSeeds, seat: int) -> TableSeeds:
    """A seat left before the deal: its seed goes with its player."""
    return replace(
        seeds,
        client_seeds=set_at(seeds.client_seeds, seat, None),
        after_commitment=set_at(seeds.after_commitment, seat, False),
    )


def seeds_json(seeds: TableSeeds, finished: bool) -> dict[str, Any]:
    """For every viewer: the commitment and the seats' seeds; the server seed once it is over."""
    shown = [
        None if seed is None else {"seed": seed.seed, "by": seed.by, "after_commitment": after}
        for seed, after in zip(seeds.client_seeds, seeds.after_commitment, strict=True)
    ]
    return {
        "commitment": seeds.commitment,
        "committed_in_advance": seeds.committed_in_advance,
        "client_seeds": shown,
        "server_seed": seeds.server_seed if finished else None,
    }
