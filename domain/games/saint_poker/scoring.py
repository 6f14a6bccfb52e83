"""Saint Poker scoring: ranking the hands (P3), points (P4), pickup order (P5), the end (P6)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.saint_poker.events import GameEnded, RoundScored
from domain.games.saint_poker.state import PICKS_PER_SEAT, ROUNDS, RankedHand
from domain.kit.cards import Card
from domain.kit.ranking import Ranks, by_final_figures
from domain.shared.poker import rank_hand


def round_points(round_number: int, winners: int) -> int:
    """P4: the round number, shared by tied winners, each share rounded up: ceil(r / t)."""
    return -(-round_number // winners)


def score_round(
    round_number: int,
    river: tuple[Card, ...],
    revealed: Sequence[tuple[Card, ...]],
    totals: Sequence[int],
) -> RoundScored:
    """P3: each seat's best five of the river and its 2 revealed cards; P4; P5."""
    hands = [rank_hand(river + cards) for cards in revealed]
    best = max(hand.strength for hand in hands)
    winners = sum(hand.strength == best for hand in hands)
    points = tuple(
        round_points(round_number, winners) if hand.strength == best else 0 for hand in hands
    )
    ranking = tuple(
        RankedHand(
            seat=seat,
            place=1 + sum(other.strength > hand.strength for other in hands),
            strength=hand.strength,
            name=hand.name,
            points=points[seat],
        )
        for seat, hand in sorted(enumerate(hands), key=lambda item: (-item[1].strength, item[0]))
    )
    order = () if round_number >= ROUNDS else pickup_order(ranking, totals)
    return RoundScored(round_number, ranking, points, order)


def pickup_order(ranking: Sequence[RankedHand], totals: Sequence[int]) -> tuple[int, ...]:
    """P5: worst hand first, best last; equal hands: more points picks later, then the lower
    seat first. Equal hands score the same this round, so the totals before it (`totals`) order
    them as the totals after it would."""
    once = sorted(
        (hand.seat for hand in ranking),
        key=lambda seat: (_strength(ranking, seat), totals[seat], seat),
    )
    return tuple(once) * PICKS_PER_SEAT


def _strength(ranking: Sequence[RankedHand], seat: int) -> int:
    return next(hand.strength for hand in ranking if hand.seat == seat)


def game_end(totals: Sequence[int]) -> GameEnded:
    """P6: the most points wins; ties share the victory."""
    best = max(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == best)
    losers = tuple(seat for seat in range(len(totals)) if seat not in winners)
    final = {str(seat): {"points": total} for seat, total in enumerate(totals)}
    return GameEnded(winners=winners, losers=losers, final=final)


def ranking(ended: GameEnded, players: int) -> Ranks:
    """G7 by P6: the most points first; equal points tie."""
    return by_final_figures(ended, players, ("points",))
