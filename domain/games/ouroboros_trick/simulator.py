"""A compact Ouroboros Trick game for playouts: mutable lists, no events, no views. Every seat
acts as the basic bot would (bots.py) from the full state it is given; the rules (O2-O5) are the
game's own, restated for speed, and tests play it beside the real game."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.games.ouroboros_trick.bots import choose_discard, choose_play
from domain.games.ouroboros_trick.state import SUITS
from domain.kit.cards import Card
from domain.shared.tricks import ListTrick, Play

MAX_TRICKS = 300  # a guard: a playout this long is called a draw


def shown(cards: list[Card]) -> list[Card]:
    """Sorted as a view shows a hand: the basic bot breaks its ties by that order."""
    return sorted(cards, key=lambda card: (SUITS.index(card.suit), card.rank))


@dataclass(slots=True)
class Game(ListTrick):
    players: int
    hands: list[list[Card]]
    pools: list[list[Card]]
    leader: int
    trick: list[Play] = field(default_factory=list)
    pending: tuple[int, int] | None = None  # (seat, count) of a discard to choose
    winners: tuple[int, ...] | None = None  # once over

    def copy(self) -> Game:
        return Game(
            self.players,
            [list(hand) for hand in self.hands],
            [list(pool) for pool in self.pools],
            self.leader,
            list(self.trick),
            self.pending,
            self.winners,
        )

    def play(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.trick.append(Play(seat, card))
        if len(self.trick) < self.players:
            return
        led = self.trick[0].card.suit
        best: Play | None = None
        for play in self.trick:  # O3: the highest trump, the later of equals; else led
            if play.card.suit != led and (best is None or play.card.rank >= best.card.rank):
                best = play
        if best is None:
            best = max(self.trick, key=lambda play: play.card.rank)
        k = min(play.card.rank for play in self.trick)  # O4
        winner = best.seat
        self.pools[winner].extend(play.card for play in self.trick)
        self.trick, self.leader = [], winner
        hand = self.hands[winner]
        if len(hand) > k:
            self.pending = (winner, k)
            return
        if len(hand) == k:
            self.hands[winner] = []
        else:  # short-hand: the pool becomes the hand, the rest comes from it
            rest = k - len(hand)
            self.hands[winner], self.pools[winner] = shown(self.pools[winner]), []
            if len(self.hands[winner]) > rest:
                self.pending = (winner, rest)
                return
            self.hands[winner] = []
        self._aftermath()

    def discard(self, seat: int, cards: list[Card]) -> None:
        gone = set(cards)
        self.hands[seat] = [card for card in self.hands[seat] if card not in gone]
        self.pending = None
        self._aftermath()

    def _aftermath(self) -> None:
        """O5: empty hands take their pools; seats with neither have lost."""
        for seat in range(self.players):
            if not self.hands[seat] and self.pools[seat]:
                self.hands[seat], self.pools[seat] = shown(self.pools[seat]), []
        losers = [seat for seat in range(self.players) if not self.hands[seat]]
        if losers:
            self.winners = tuple(s for s in range(self.players) if s not in losers)

    def finish(self) -> tuple[int, ...] | None:
        """Plays on, every seat as the basic bot: the winners, or None past the guard."""
        for _ in range(MAX_TRICKS * self.players):
            if self.winners is not None:
                return self.winners
            if self.pending is not None:
                seat, count = self.pending
                self.discard(seat, choose_discard(self.hands[seat], count))
                continue
            seat = self.to_play()
            playable = self.playable(seat)
            card = (
                playable[0]
                if len(playable) == 1
                else choose_play(tuple(self.trick), playable, self.players)
            )
            self.play(seat, card)
        return None

    def share(self, seat: int) -> float:
        """After `finish`: the seat's share of the victory (a draw past the guard: even)."""
        if self.winners is None:
            return 1.0 / self.players
        return 1.0 / len(self.winners) if seat in self.winners else 0.0
