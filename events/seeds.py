"""The server's side of seeded deals (G6): drawing the secret server seed, handing out its
commitment before any table uses it (POST /seed-commitments), and the seats' seeds of a new
table or a joining seat, drawn by the server for a seat that gives none.

The seeds are drawn here, outside the domain, from the service's generator (`SystemRandom` in
production, a seeded `Random` in tests): the domain derives every deal from the seeds it is
handed (domain/shared/deal_derivation.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from domain.kit.game_type import Rng
from domain.shared.seeds import PLAYER, SERVER, ClientSeed, SeedSetup
from domain.tables import table as tables
from events.errors import ApplicationError

COMMITMENT_LIFETIME = timedelta(hours=1)  # an unused commitment expires after this


@dataclass(frozen=True)
class SeedCommitment:
    """What POST /seed-commitments gives: an id to create a table with, the hash of the server
    seed it stands for, and when it expires unused."""

    id: UUID
    commitment: str
    expires_at: datetime


@dataclass(frozen=True)
class SeedRequest:
    """What a table's creator asks of its seeds: a commitment it was given before (its id), and
    each seat's seed as given (None where none was)."""

    commitment: UUID | None = None
    client_seeds: tuple[str | None, ...] = ()


class NoSuchCommitment(ApplicationError):
    """Unknown, expired, or used by another table: in every case nothing this server holds."""

    code = "not-found"

    def __init__(self) -> None:
        super().__init__(
            "no unused seed commitment has this id (unknown, expired, or used by another table)"
        )


def random_hex(rng: Rng, digits: int) -> str:
    return f"{rng.randint(0, 16**digits - 1):0{digits}x}"


def draw_server_seed(rng: Rng) -> str:
    """32 random bytes (G2), in hex."""
    return random_hex(rng, 64)


def client_seed(given: str | None, rng: Rng) -> ClientSeed:
    """The seed a seat gave, or 128 bits the server draws for it, marked as such."""
    if given is None:
        return ClientSeed(random_hex(rng, 32), SERVER)
    return ClientSeed(given, PLAYER)


def joining_seed(seeded: bool, given: str | None, rng: Rng) -> ClientSeed | None:
    """A joining seat's seed: at a seeded table the one given, or one drawn; at a table from
    before seeds none, unless one was given (kept, for the rules to refuse)."""
    if seeded:
        return client_seed(given, rng)
    return None if given is None else ClientSeed(given, PLAYER)


def seed_setup(
    seats: Sequence[tables.SeatInfo], given: Sequence[str | None], rng: Rng
) -> SeedSetup:
    """A new table's seeds, its server seed drawn now: one seed per human seat (given, or
    drawn), none for bots or open seats."""
    padded = [*given, *[None] * (len(seats) - len(given))]
    seeds = tuple(_seat_seed(seat, seed, rng) for seat, seed in zip(seats, padded, strict=False))
    return SeedSetup(draw_server_seed(rng), False, seeds)


def _seat_seed(seat: tables.SeatInfo, given: str | None, rng: Rng) -> ClientSeed | None:
    if seat.kind == tables.HUMAN:
        return client_seed(given, rng)
    # A seed given for a bot or an open seat is kept, for the rules to refuse (bad input).
    return None if given is None else ClientSeed(given, PLAYER)
