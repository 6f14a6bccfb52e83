"""What the plays in sight say about the hands that made them, if those seats play as the basic
bot would: a lead is the leader's lowest card that is not a 7, a follower ducks with its highest
card under the winner, and so on. The strong bot models every seat that way in its playouts;
here it deals no seat a card with which that model would have played otherwise, in this trick,
the last one or a scoring trick lying face up (a hand only loses cards, so what it lacked then
it lacks now), and checks the deal against the plays of this trick and the last. It only
prefers such deals: against a seat that plays otherwise it falls back on the plain one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.games.trick_and_snipers.bots import choose_play
from domain.games.trick_and_snipers.rules import is_snipe
from domain.games.trick_and_snipers.state import POINT_RANK, SNIPE_TOTAL, SUITS
from domain.kit.cards import Card
from domain.kit.game_type import Rng
from domain.shared.tricks import Play, highest_of_led

Hands = Mapping[int, Sequence[Card]]
TRIES = 6  # shuffles tried before the exclusions are given up


class Dealer:
    """Deals hands for the seats of `counts` from `pool`: the `fixed` cards go to their seat and
    no seat gets a card it excludes (the most constrained seats draw first). Cards are numbered
    by their place in the pool once, so that each deal compares numbers, not cards."""

    def __init__(
        self, pool: Sequence[Card], counts: Mapping[int, int], excluded: Mapping[int, set[Card]]
    ) -> None:
        self.pool = list(pool)
        self.number = {card: i for i, card in enumerate(self.pool)}
        self.counts = dict(counts)
        self.barred = {
            seat: [card in excluded.get(seat, ()) for card in self.pool] for seat in counts
        }
        self.order = sorted(counts, key=lambda seat: (-len(excluded.get(seat, ())), seat))

    def __call__(
        self, rng: Rng, fixed: Mapping[int, Sequence[Card]]
    ) -> dict[int, list[Card]] | None:
        """A deal, or None if a few shuffles find none."""
        placed = {
            seat: [self.number[c] for c in fixed.get(seat, ()) if c in self.number][:count]
            for seat, count in self.counts.items()
        }
        taken = {i for numbers in placed.values() for i in numbers}
        free = [i for i in range(len(self.pool)) if i not in taken]
        for _ in range(TRIES):
            hands = self._try(rng.sample(free, len(free)), placed)
            if hands is not None:
                return {seat: [self.pool[i] for i in numbers] for seat, numbers in hands.items()}
        return None

    def _try(
        self, shuffled: list[int], placed: dict[int, list[int]]
    ) -> dict[int, list[int]] | None:
        hands = {seat: list(numbers) for seat, numbers in placed.items()}
        for seat in self.order:
            need = self.counts[seat] - len(hands[seat])
            barred = self.barred[seat]
            chosen = [i for i in shuffled if not barred[i]][: max(0, need)]
            if len(chosen) < need:
                return None
            hands[seat].extend(chosen)
            gone = set(chosen)
            shuffled = [i for i in shuffled if i not in gone]
        return hands


def won_plays(winner: int, cards: Sequence[Card], players: int) -> tuple[Play, ...]:
    """A trick shown as its cards in play order and its winner, back into plays: the winning
    card (the highest of the led suit) was the winner's, so the seats follow from it."""
    led = cards[0].suit
    top = max(range(len(cards)), key=lambda i: cards[i].rank if cards[i].suit == led else 0)
    leader = (winner - top) % players
    return tuple(Play((leader + i) % players, card) for i, card in enumerate(cards))


def lead_excludes(lead: Card, pool: Sequence[Card]) -> set[Card]:
    """The cards the leader cannot have held: the basic bot leads its lowest card that is not
    a 7 (the first suit on equal ranks), and a 7 only from a hand of 7s."""
    if lead.rank == POINT_RANK:
        return {card for card in pool if card.rank != POINT_RANK}
    order = SUITS.index(lead.suit)
    return {
        card
        for card in pool
        if card.rank != POINT_RANK
        and (card.rank < lead.rank or (card.rank == lead.rank and SUITS.index(card.suit) < order))
    }


@dataclass(frozen=True, slots=True)
class Seen:
    """A play of another seat in sight: what was on the table, and the cards it has played
    since (this trick's, for a play of the last one)."""

    seat: int
    before: tuple[Play, ...]
    card: Card
    later: tuple[Card, ...]
    last: bool  # the trick's last play


def plays_in_sight(
    trick: Sequence[Play], last: Sequence[Play], me: int, players: int
) -> list[Seen]:
    later = {play.seat: (play.card,) for play in trick}
    return [
        Seen(play.seat, tuple(plays[:i]), play.card, since.get(play.seat, ()), i == players - 1)
        for plays, since in ((trick, {}), (last, later))
        for i, play in enumerate(plays)
        if play.seat != me
    ]


def play_excludes(
    before: tuple[Play, ...], card: Card, last: bool, pool: Sequence[Card]
) -> set[Card]:
    """The cards a seat that played `card` after `before` cannot have held, had it played as
    the basic bot (`bots.choose_play`, read backwards)."""
    if not before:
        return lead_excludes(card, pool)
    led = before[0].card.suit
    winning = highest_of_led(before)
    assert winning is not None
    top = winning.card.rank
    if card.suit != led:  # it lacks the suit: it snipes if it can, else sheds its highest
        return _off_suit_excludes(card, SNIPE_TOTAL - top, pool)
    suit = [c for c in pool if c.suit == led and c != card]
    open_point = not any(is_snipe(before[:i], p.card) for i, p in enumerate(before))
    has_seven = any(p.card.rank == POINT_RANK for p in before)
    out: set[Card] = set()
    if open_point and top < POINT_RANK and card.rank != POINT_RANK:
        out |= {c for c in suit if c.rank == POINT_RANK}  # its 7 would have taken the point
    if card.rank == POINT_RANK:  # for the point, or it had nothing else
        return out if card.rank > top and open_point else out | set(suit)
    if card.rank > top and open_point and has_seven:
        if last:  # the lowest card that takes the point
            return out | {c for c in suit if top < c.rank < card.rank}
        return out | {c for c in suit if c.rank > card.rank}  # the highest one
    if card.rank > top:  # nothing under the winner, and the lowest that is not a 7
        return out | {c for c in suit if c.rank != POINT_RANK and c.rank < card.rank}
    if open_point and has_seven:  # it would have taken the point if it could
        out |= {c for c in suit if c.rank > top}
    return out | {c for c in suit if c.rank != POINT_RANK and card.rank < c.rank < top}


def _off_suit_excludes(card: Card, snipe: int, pool: Sequence[Card]) -> set[Card]:
    order = SUITS.index(card.suit)
    if card.rank == snipe:  # the first snipe in the hand's order
        return {c for c in pool if c.rank == snipe and SUITS.index(c.suit) < order}
    out = {c for c in pool if c.rank == snipe}
    if card.rank == POINT_RANK:  # a 7 thrown away: it had only 7s
        return out | {c for c in pool if c.rank != POINT_RANK}
    return out | {
        c
        for c in pool
        if c.rank != POINT_RANK
        and (c.rank > card.rank or (c.rank == card.rank and SUITS.index(c.suit) < order))
    }


def misfits(hands: Hands, seen: Sequence[Seen]) -> int:
    """How many of the plays in sight the basic bot would not have made from the hand it held
    then (its hand now, and the cards it has played since)."""
    count = 0
    for play in seen:
        held = [*hands[play.seat], *play.later, play.card]
        playable = _playable(held, play.before[0].card.suit if play.before else None)
        count += choose_play(play.before, playable, play.last) != play.card
    return count


def _playable(held: list[Card], led: str | None) -> list[Card]:
    """As the view lists them to the bot: sorted by suit, then rank, the led suit if any."""
    following = sorted(card for card in held if card.suit == led)
    return following or sorted(held, key=lambda card: (SUITS.index(card.suit), card.rank))
