"""Grouping waiting players into tables.

Players wait in pools: one per game type and rated or not (a casual player never lands at a
rated table). Within a pool the longest waiting player goes first: it is seated with the
players nearest its rating, at the largest table size every one of them accepts, provided the
table's spread of ratings fits the widest window among them (domain/matchmaking/window.py: so a
long wait pulls in players its window now covers, and nobody starves for opponents). A player
who asked for bots and has waited that long may also be seated with the bot-ready players near
it and bots in the seats left over, at the size that needs the fewest bots. Nobody is seated
at a table with bots unless it asked for them and has waited as long as it said.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from domain.matchmaking.window import half_width


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player in the queue, as the matcher sees it now."""

    player: str
    game_type: str
    rated: bool
    sizes: tuple[int, ...]  # the table sizes it accepts
    rating: float
    waited: float  # seconds in the queue so far
    bots_after: float | None = None  # seconds after which bots may fill its table; None: never

    @property
    def reach(self) -> float:
        return half_width(self.waited)

    @property
    def takes_bots(self) -> bool:
        return self.bots_after is not None and self.waited >= self.bots_after


@dataclass(frozen=True, slots=True)
class Match:
    """A table to create: these players (nearest the anchor's rating first), and `size` seats
    in all, the rest for bots."""

    game_type: str
    rated: bool
    players: tuple[Seeker, ...]
    size: int

    @property
    def bots(self) -> int:
        return self.size - len(self.players)


def matches(seekers: Iterable[Seeker]) -> list[Match]:
    """Every table that can be made now, no player in two of them."""
    pools: dict[tuple[str, bool], list[Seeker]] = {}
    for seeker in seekers:
        pools.setdefault((seeker.game_type, seeker.rated), []).append(seeker)
    return [match for key in sorted(pools) for match in _pool_matches(pools[key])]


def fits(group: Sequence[Seeker]) -> bool:
    """Whether the group's spread of ratings is within the widest window among them."""
    ratings = [seeker.rating for seeker in group]
    return max(ratings) - min(ratings) <= max(seeker.reach for seeker in group)


def _pool_matches(pool: list[Seeker]) -> list[Match]:
    by_rating = sorted(pool, key=lambda s: (s.rating, s.player))
    ratings = [seeker.rating for seeker in by_rating]
    widest = max(seeker.reach for seeker in pool)
    taken: set[str] = set()
    found = []
    for anchor in sorted(pool, key=lambda s: (-s.waited, s.player)):
        if anchor.player in taken:
            continue
        # Only players within the widest window of the pool can ever share its table.
        low = bisect_left(ratings, anchor.rating - widest)
        near = by_rating[low : bisect_right(ratings, anchor.rating + widest)]
        others = sorted(
            (s for s in near if s.player not in taken and s.player != anchor.player),
            key=lambda s: (abs(s.rating - anchor.rating), -s.waited, s.player),
        )
        match = _full_table(anchor, others) or _table_with_bots(anchor, others)
        if match is not None:
            taken.update(seeker.player for seeker in match.players)
            found.append(match)
    return found


def _full_table(anchor: Seeker, others: list[Seeker]) -> Match | None:
    """The largest table of humans alone around the anchor, if there is one now."""
    for size in sorted(anchor.sizes, reverse=True):
        group = _gather(anchor, others, size, lambda seeker: True)
        if len(group) == size:
            return Match(anchor.game_type, anchor.rated, tuple(group), size)
    return None


def _table_with_bots(anchor: Seeker, others: list[Seeker]) -> Match | None:
    """A table of the anchor and the bot-ready players near it, bots in the other seats: at
    the size that needs the fewest bots (the smaller size on a tie)."""
    if not anchor.takes_bots:
        return None
    best: Match | None = None
    for size in sorted(anchor.sizes):
        group = _gather(anchor, others, size, lambda seeker: seeker.takes_bots)
        match = Match(anchor.game_type, anchor.rated, tuple(group), size)
        if best is None or match.bots < best.bots:
            best = match
    return best


def _gather(
    anchor: Seeker, others: list[Seeker], size: int, admits: Callable[[Seeker], bool]
) -> list[Seeker]:
    """The anchor and, nearest first, each other player who accepts `size`, is admitted and
    keeps the group within its windows, until `size` are seated."""
    group = [anchor]
    for seeker in others:
        if len(group) == size:
            break
        if size in seeker.sizes and admits(seeker) and fits([*group, seeker]):
            group.append(seeker)
    return group
