"""Rated tables: a table created with the option `rated: true` counts towards its players'
ratings (G7). A rating belongs to someone, so every human seat of a rated table is a player's:
taken with a player key at creation, or, for an open seat, joined later with a player key.
Bots are rated too, one identity per level, so only the levels that have one may sit there."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from domain.kit.decider import DomainError, InvalidSetup

RATED = "rated"  # the table option's name
# Each rated bot level's identity: a fixed player id, the same on every server.
BOT_RATERS = {
    "random": "00000000-0000-4000-8000-00000000b0a1",
    "basic": "00000000-0000-4000-8000-00000000b0a2",
    "strong": "00000000-0000-4000-8000-00000000b0a3",
}
RATED_BOT_LEVELS = tuple(BOT_RATERS)


class PlayersOnly(DomainError):
    """Taking a rated table's seat without a player key."""

    code = "forbidden"


class Seat(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def level(self) -> str | None: ...
    @property
    def player(self) -> str | None: ...


def is_rated(options: Mapping[str, Any]) -> bool:
    return options.get(RATED) is True


def check_rated_option(options: Mapping[str, Any]) -> None:
    if not isinstance(options.get(RATED, False), bool):
        raise InvalidSetup("rated must be true or false")


def check_rated_seats(options: Mapping[str, Any], seats: Iterable[Seat]) -> None:
    """At a rated table every human seat is a player's and every bot is of a rated level."""
    if not is_rated(options):
        return
    for seat in seats:
        if seat.kind == "human" and seat.player is None:
            raise InvalidSetup(
                "a rated table's human seats are players': take a seat with player: me"
            )
        if seat.kind == "bot" and seat.level not in RATED_BOT_LEVELS:
            raise InvalidSetup(f"a rated table's bots are {', '.join(RATED_BOT_LEVELS)}")


def check_rated_join(options: Mapping[str, Any], player: str | None) -> None:
    if is_rated(options) and player is None:
        raise PlayersOnly("a rated table's seats are taken with a player key")
