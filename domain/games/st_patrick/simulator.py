"""A compact St Patrick round for playouts: mutable lists, no events, no views. Every seat acts
as the basic bot would (bots.py), from the full state it is given, except the `wild` seats,
which take relics at random; the rules (S3-S9) are the game's own, restated for speed, and
tests play it beside the real game."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from domain.games.st_patrick.bots import choose_play, danger, relics_to_take
from domain.games.st_patrick.scoring import life_changes
from domain.games.st_patrick.state import RELICS, SNAKE, ST_PATRICK, SUITS, bites_of
from domain.kit.cards import Card
from domain.shared.tricks import ListTrick, Play

LIFE_SCALE = 4.0  # points of life over which being ahead turns from a toss-up to near sure


def shown(cards: list[Card]) -> list[Card]:
    """Sorted as a view shows a hand: the basic bot breaks its ties by that order."""
    return sorted(cards, key=lambda card: (SUITS.index(card.suit), card.rank))


def basic_pass_count(hand: list[Card]) -> int:
    return 2 if sum(danger(card) >= 10 for card in hand) >= 2 else 1


def basic_pass(hand: list[Card], count: int) -> list[Card]:
    return sorted(shown(hand), key=danger, reverse=True)[:count]


@dataclass(slots=True)
class Round(ListTrick):
    players: int
    hands: list[list[Card]]
    life: list[int]
    relics: list[int]
    snake_lead: bool = True  # the option first_lead_snake_allowed
    phase: str = "relics"  # relics | playing | over
    relics_left: int = RELICS
    relic_turn: int = 0
    passes: int = 0  # in a row, in this relic phase
    taken: bool = False
    curses: int = 0
    special: bool = False
    leader: int = 0
    trick: list[Play] = field(default_factory=list)
    tricks_played: int = 0
    bites: list[int] = field(default_factory=list)
    snakes: list[int] = field(default_factory=list)
    # Seats that take relics as the random bot would (in the hunt they play as the basic bot),
    # and the uniform draws in [0, 1) their choices use, in turn: drawn from the searching
    # bot's generator, the round makes none of its own.
    wild: frozenset[int] = frozenset()
    draws: tuple[float, ...] = ()
    drawn: int = 0

    def copy(self) -> Round:
        return Round(
            self.players,
            [list(hand) for hand in self.hands],
            list(self.life),
            list(self.relics),
            self.snake_lead,
            self.phase,
            self.relics_left,
            self.relic_turn,
            self.passes,
            self.taken,
            self.curses,
            self.special,
            self.leader,
            list(self.trick),
            self.tricks_played,
            list(self.bites),
            list(self.snakes),
            self.wild,
            self.draws,
            self.drawn,
        )

    def holder(self, card: Card) -> int:
        return next(seat for seat, hand in enumerate(self.hands) if card in hand)

    # --- the relic phase (S4, S5) ----------------------------------------------------------

    def start_relics(self) -> None:
        self.phase, self.relics = "relics", [0] * self.players
        self.relics_left, self.passes, self.taken = RELICS, 0, False
        self.relic_turn = self.holder(ST_PATRICK)

    def relic_action(self, seat: int, count: int) -> None:
        """`count` relics taken (0: a pass)."""
        n = self.players
        self.relic_turn = (seat + 1) % n
        if count == 0:
            self.passes += 1
            if self.passes >= (n - 1 if self.taken else n):
                self.start_hunt(special=False)
            return
        self.relics[seat] += count
        self.relics_left -= count
        self.passes, self.taken = 0, True
        if self.relics_left == 0:
            self._curse()

    def _curse(self) -> None:
        n = self.players
        self.curses += 1
        self.life = [have - lost for have, lost in zip(self.life, self.relics, strict=True)]
        self.hands = [self.hands[(s - 1) % n] for s in range(n)]
        if self.curses == n:
            self.start_hunt(special=True)
        else:
            self.start_relics()

    def start_hunt(self, special: bool) -> None:
        self.phase, self.special = "playing", special
        self.leader = self.holder(ST_PATRICK)
        self.trick, self.tricks_played = [], 0
        self.bites, self.snakes = [0] * self.players, [0] * self.players

    # --- the hunt (S7) ---------------------------------------------------------------------

    def playable(self, seat: int) -> list[Card]:
        """Must follow suit; without first_lead_snake_allowed, the first lead is no snake if it
        can be."""
        if self.trick or self.tricks_played or self.snake_lead:
            return ListTrick.playable(self, seat)  # no super(): a slots dataclass is a new class
        hand = self.hands[seat]
        return [card for card in hand if card.suit != SNAKE] or list(hand)

    def play(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.trick.append(Play(seat, card))
        if len(self.trick) < self.players:
            return
        best = self.winning()
        assert best is not None  # the trick is full
        self.bites[best.seat] += sum(bites_of(play.card) for play in self.trick)
        self.snakes[best.seat] += sum(play.card.suit == SNAKE for play in self.trick)
        self.leader, self.trick = best.seat, []
        self.tricks_played += 1
        if not any(self.hands):
            self.phase = "over"

    # --- playing it out --------------------------------------------------------------------

    def finish(self) -> None:
        """The rest of the round, every seat as the basic bot; then the life changes (S6, S8)."""
        while self.phase == "relics":
            seat = self.relic_turn
            if seat in self.wild:
                take = 0 if self._draw() < 0.5 else 1 + int(self._draw() * self.relics_left)
            else:
                hand = self.hands[seat]
                take = relics_to_take(hand, self.players, self.relics[seat], self.relics_left)
            self.relic_action(seat, take)
        while self.phase == "playing":
            seat = self.to_play()
            playable = self.playable(seat)
            if len(playable) == 1:
                card = playable[0]
            else:
                last = len(self.trick) == self.players - 1
                card = choose_play(tuple(self.trick), shown(playable), last)
            self.play(seat, card)
        changes, _ = life_changes(tuple(self.bites), tuple(self.relics), self.special)
        self.life = [have + change for have, change in zip(self.life, changes, strict=True)]

    def _draw(self) -> float:
        """The next of the world's draws (round again from the first once all are used)."""
        draw = self.draws[self.drawn % len(self.draws)]
        self.drawn += 1
        return draw

    def value(self, seat: int) -> float:
        """After `finish`: how the seat stands against each other seat, from 0 (below it) to
        1 (above it), averaged over them, as ratings rank the seats (G7). If the round ended
        the game, the final order (S9); else a guess from the lives, which the game's order
        follows: a seat a few points of life behind another is likely to end below it."""
        others = [s for s in range(self.players) if s != seat]
        if min(self.life) <= 0:
            keys = list(zip(self.life, self.relics, self.snakes, strict=True))
            mine = keys[seat]
            return sum((mine > keys[s]) + 0.5 * (mine == keys[s]) for s in others) / len(others)
        return sum(_ahead(self.life[seat] - self.life[s]) for s in others) / len(others)


def _ahead(margin: int) -> float:
    """How likely a seat this many points of life ahead of another ends the game above it."""
    return 1.0 / (1.0 + math.exp(-margin / LIFE_SCALE))


def passed(hands: list[list[Card]], count: int, chosen: dict[int, list[Card]]) -> list[list[Card]]:
    """S3: every seat passes `count` cards to its left; those not in `chosen` as the basic bot."""
    n = len(hands)
    passes = [chosen.get(s) or basic_pass(hands[s], count) for s in range(n)]
    kept = [[c for c in hands[s] if c not in passes[s]] for s in range(n)]
    return [kept[s] + list(passes[(s - 1) % n]) for s in range(n)]
