"""A compact Trick & Snipers game for playouts: mutable lists of cards, no events, no views.
Every seat plays as the basic bot would (`bots.choose_play`), from the full state it is given.
The rules (T3-T6) and that bot's play are the game's own, restated for speed; tests play it
beside the real game and ask both bots for the same cards."""

from __future__ import annotations

from dataclasses import dataclass

from domain.games.trick_and_snipers.bots import choose_pass
from domain.games.trick_and_snipers.state import (
    PASS_COUNT,
    POINT_RANK,
    POINTS_TO_WIN,
    SNIPE_TOTAL,
    SUITS,
)
from domain.kit.cards import Card
from domain.shared.tricks import ListTrick, Play


@dataclass(slots=True)
class Sim(ListTrick):
    players: int
    hands: list[list[Card]]
    leader: int
    points: list[int]
    tricks: list[int]
    trick: list[Play]
    last_sniper: int | None = None

    def copy(self) -> Sim:
        return Sim(
            self.players,
            [list(hand) for hand in self.hands],
            self.leader,
            list(self.points),
            list(self.tricks),
            list(self.trick),
            self.last_sniper,
        )

    def play(self, seat: int, card: Card) -> tuple[int, ...] | None:
        """Plays the card; the winners once the game is over (T6), else None."""
        return self._play(seat, card, self.winning())

    def _play(self, seat: int, card: Card, winning: Play | None) -> tuple[int, ...] | None:
        if (
            winning is not None
            and card.suit != self.trick[0].card.suit
            and card.rank + winning.card.rank == SNIPE_TOTAL
        ):
            self.last_sniper = seat  # T4
        self.hands[seat].remove(card)
        self.trick.append(Play(seat, card))
        if len(self.trick) < self.players:
            return None
        return self._trick_done()

    def _trick_done(self) -> tuple[int, ...] | None:
        winner = self.winning()
        assert winner is not None
        point_to = self.last_sniper  # T5
        if point_to is None and any(play.card.rank == POINT_RANK for play in self.trick):
            point_to = winner.seat
        self.tricks[winner.seat] += 1
        self.leader, self.trick, self.last_sniper = winner.seat, [], None
        if point_to is not None:
            self.points[point_to] += 1
            if self.points[point_to] >= POINTS_TO_WIN:
                return (point_to,)
        if any(self.hands):
            return None
        keys = list(zip(self.points, self.tricks, strict=True))
        return tuple(seat for seat, key in enumerate(keys) if key == max(keys))

    def finish(self) -> tuple[int, ...]:
        """Plays the game out, every seat as the basic bot."""
        while True:
            seat, winning = self.to_play(), self.winning()  # found once for both
            winners = self._play(seat, self._basic(seat, winning), winning)
            if winners is not None:
                return winners

    def basic_choice(self, seat: int) -> Card:
        """`bots.choose_play` for the seat, restated for speed on a hand in shown order (by
        suit, then rank) and on what the trick already knows (a snipe sets `last_sniper`)."""
        return self._basic(seat, self.winning())

    def _basic(self, seat: int, winning: Play | None) -> Card:
        hand = self.hands[seat]
        if winning is None:  # leading: the lowest card that is not a 7, the first on ties
            return _lowest(hand)
        led, top = winning.card.suit, winning.card.rank
        follow = [card for card in hand if card.suit == led]
        if not follow:
            return _off_suit(hand, top)
        beating = [card for card in follow if card.rank > top]
        if beating and self.last_sniper is None:
            seven = next((card for card in beating if card.rank == POINT_RANK), None)
            if seven is not None:
                return seven
            if any(play.card.rank == POINT_RANK for play in self.trick):
                return beating[0] if len(self.trick) == self.players - 1 else beating[-1]
        ducking = [card for card in follow if card.rank < top and card.rank != POINT_RANK]
        if ducking:
            return ducking[-1]
        return next((card for card in follow if card.rank != POINT_RANK), follow[0])


def _lowest(hand: list[Card]) -> Card:
    best: Card | None = None
    for card in hand:
        if card.rank != POINT_RANK and (best is None or card.rank < best.rank):
            best = card
    return hand[0] if best is None else best  # a hand of 7s leads its first


def _off_suit(hand: list[Card], top: int) -> Card:
    """Void in the led suit: the first snipe, else the highest card that is not a 7."""
    best: Card | None = None
    for card in hand:
        if card.rank + top == SNIPE_TOTAL:
            return card
        if card.rank != POINT_RANK and (best is None or card.rank > best.rank):
            best = card
    return hand[0] if best is None else best


def shown(cards: list[Card]) -> list[Card]:
    """Sorted as a view shows a hand: the basic bot breaks its ties by that order."""
    return sorted(cards, key=lambda card: (SUITS.index(card.suit), card.rank))


def pass_all(hands: list[list[Card]], chosen: dict[int, list[Card]]) -> list[list[Card]]:
    """T2: every seat passes 4 cards to its left; seats not in `chosen` pass as the basic bot."""
    n = len(hands)
    passes = [chosen.get(s) or choose_pass(shown(hands[s]), PASS_COUNT) for s in range(n)]
    kept = [[c for c in hands[s] if c not in passes[s]] for s in range(n)]
    return [shown(kept[s] + list(passes[(s - 1) % n])) for s in range(n)]


def share(winners: tuple[int, ...], seat: int) -> float:
    """The seat's share of the victory."""
    return 1.0 / len(winners) if seat in winners else 0.0
