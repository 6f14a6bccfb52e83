"""Dealing the cards a seat cannot see, consistently with what it can: each other seat gets as
many cards as it holds, the cards known to be in a seat's hand go there, and no seat gets a suit
it has shown it lacks. Whatever is left of the pool lies elsewhere (a left-over pile, tricks
played face down), as far as the seat can tell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from domain.kit.cards import Card
from domain.kit.game_type import Rng

TRIES = 12


def deal_hidden(
    pool: Sequence[Card],
    counts: Mapping[int, int],
    rng: Rng,
    fixed: Mapping[int, Iterable[Card]] | None = None,
    voids: Mapping[int, Iterable[str]] | None = None,
) -> tuple[dict[int, list[Card]], list[Card]]:
    """Hands for the seats of `counts` drawn from `pool` (its order must come from the view
    alone, e.g. sorted), and the cards left over. `fixed` cards go to their seat, up to its
    count (one of a suit the seat lacks is dropped: it was played out of sight). Voids are
    respected when any deal allows it: the most constrained seats draw first, and a few
    shuffles are tried before the voids are given up."""
    inside = set(pool)
    lacking = {seat: frozenset((voids or {}).get(seat, ())) for seat in counts}
    # A card of a suit the seat has shown it lacks was played out of sight: it is not there.
    placed = {
        seat: [
            c for c in (fixed or {}).get(seat, ()) if c in inside and c.suit not in lacking[seat]
        ][: counts[seat]]
        for seat in counts
    }
    taken = {card for cards in placed.values() for card in cards}
    free = [card for card in pool if card not in taken]
    order = sorted(counts, key=lambda seat: (-len(lacking[seat]), seat))
    for attempt in range(TRIES + 1):
        relax = attempt == TRIES  # the last try ignores the voids: a deal must come out
        shuffled = rng.sample(free, len(free))
        hands = {seat: list(cards) for seat, cards in placed.items()}
        ok = True
        for seat in order:
            need = counts[seat] - len(hands[seat])
            if need <= 0:
                continue
            allowed = [c for c in shuffled if relax or c.suit not in lacking[seat]]
            if len(allowed) < need and not relax:
                ok = False
                break
            chosen = allowed[:need]
            hands[seat].extend(chosen)
            gone = set(chosen)
            shuffled = [c for c in shuffled if c not in gone]
        if ok:
            return hands, shuffled
    raise AssertionError("unreachable: the relaxed try always deals")  # pragma: no cover


def voids_in(plays: Iterable[Sequence[tuple[int, Card]]]) -> dict[int, set[str]]:
    """Suits seats have shown they lack: each play off the led suit of a trick."""
    lacking: dict[int, set[str]] = {}
    for trick in plays:
        if not trick:
            continue
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit != led:
                lacking.setdefault(seat, set()).add(led)
    return lacking
