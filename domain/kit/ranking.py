"""How a finished game ranks its seats, for ratings (G7): each game's own final order and
tiebreaks, and below every seat still playing, the seats whose human left.

A ranking gives each seat its place, 1 for the best; seats that tie share a place and the next
place is skipped (1, 2, 2, 4), as a ratings model takes them."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from domain.kit.outcome import GameEnded

Ranks = tuple[int, ...]


def ranks_by(keys: Sequence[tuple[int, ...]]) -> Ranks:
    """Each seat's place when a higher key is better and equal keys tie."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def by_final_figures(ended: GameEnded, players: int, figures: Sequence[str]) -> Ranks:
    """Seats ordered by their final figures, compared in the order named, higher first."""
    return ranks_by([_figures(ended.final, seat, figures) for seat in range(players)])


def _figures(
    final: Mapping[str, Mapping[str, int]], seat: int, names: Sequence[str]
) -> tuple[int, ...]:
    return tuple(final[str(seat)][name] for name in names)


def winners_first(ended: GameEnded, players: int) -> Ranks:
    """The winners share the first place, every other seat the next: a game whose result says
    only who won."""
    return ranks_by([(seat in ended.winners,) for seat in range(players)])


def leavers_last(ranks: Ranks, left: Collection[int]) -> Ranks:
    """G7: a seat whose human left (or was removed after timeouts) ranks below every seat still
    playing, whatever the bot that took it over did; the leavers share the last place."""
    keys = [(0, 0) if seat in left else (1, -rank) for seat, rank in enumerate(ranks)]
    return ranks_by(keys)
