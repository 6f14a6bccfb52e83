"""What follows a trick (O3-O5): its winner, the winner's discard, refills and losers.

Each function returns events; `decide` folds them to see the state the next step starts from.
"""

from __future__ import annotations

from domain.games.ouroboros_trick.events import (
    CardsDiscarded,
    DiscardAwaited,
    GameEnded,
    PoolTaken,
)
from domain.games.ouroboros_trick.state import State
from domain.kit.cards import Card
from domain.kit.decider import Event
from domain.shared.tricks import Play, Trick, best_play, highest_of_led, led_suit


def trick_winner(trick: Trick) -> Play:
    """O3: any card off the led suit is a trump; the highest trump wins, the later of equal
    trumps wins; with no trump the highest card of the led suit wins."""
    led = led_suit(trick)
    trump = best_play(trick, lambda play: play.card.rank if play.card.suit != led else None)
    winner = trump or highest_of_led(trick)
    assert winner is not None  # a complete trick always has its lead
    return winner


def lowest_rank(trick: Trick) -> int:
    """O4: k, the lowest rank in the trick, whatever its suit."""
    return min(play.card.rank for play in trick)


def winner_discards(
    seat: int, hand: tuple[Card, ...], pool: tuple[Card, ...], k: int
) -> list[Event]:
    """O4 for the winner holding `hand`, with `pool` already holding the trick.

    A choice is asked for (DiscardAwaited) only when there is one: more cards than must go.
    """
    if len(hand) > k:
        return [DiscardAwaited(seat, k)]
    if len(hand) == k:
        return [CardsDiscarded(seat, hand, forced=True)]
    # Short-hand: the whole hand goes, the pool becomes the hand, the rest comes from it.
    events: list[Event] = [CardsDiscarded(seat, hand, forced=True)] if hand else []
    rest = k - len(hand)
    events.append(PoolTaken(seat, pool))
    if len(pool) > rest:
        events.append(DiscardAwaited(seat, rest))
    else:  # not even enough with the pool: everything goes
        events.append(CardsDiscarded(seat, pool, forced=True))
    return events


def aftermath(state: State) -> list[Event]:
    """O5, once the winner's discard is done: empty hands take their pools, then every seat
    with neither hand nor pool has lost; if anyone lost, every other seat wins."""
    events: list[Event] = [
        PoolTaken(seat, state.pools[seat])
        for seat in range(state.players)
        if not state.hands[seat] and state.pools[seat]
    ]
    refilled = {event.seat for event in events if isinstance(event, PoolTaken)}
    hands = [len(hand) for hand in state.hands]
    pools = [len(pool) for pool in state.pools]
    for seat in refilled:
        hands[seat], pools[seat] = pools[seat], 0
    losers = tuple(seat for seat in range(state.players) if hands[seat] == 0)
    if losers:
        winners = tuple(seat for seat in range(state.players) if seat not in losers)
        final = {
            str(seat): {"hand_count": hands[seat], "pool_count": pools[seat]}
            for seat in range(state.players)
        }
        events.append(GameEnded(winners=winners, losers=losers, final=final))
    return events
