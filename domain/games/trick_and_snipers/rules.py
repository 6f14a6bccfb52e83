"""Trick & Snipers decide: validates a command and returns every event it causes."""

from __future__ import annotations

from domain.cards import Card
from domain.codec import deal_commitment
from domain.decider import Command, Deal, Event, GameFinished, GameNotStarted, IllegalAction
from domain.games.trick_and_snipers.events import (
    CardPlayed,
    CardsPassed,
    CardsReceived,
    DealCommitted,
    DeckSealed,
    GameEnded,
    HandDealt,
    PassCards,
    PlayCard,
    TrickWon,
)
from domain.games.trick_and_snipers.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.trick_and_snipers.scoring import game_end, trick_result
from domain.games.trick_and_snipers.state import (
    HAND_SIZES,
    PASS_COUNT,
    SNIPE_TOTAL,
    State,
    deck_for,
    is_terminal,
    set_at,
    turn,
)
from domain.tricks import Play, Trick, highest_of_led, led_suit, playable_cards

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    if is_terminal(state):
        raise GameFinished("the game is over")
    if isinstance(command, Deal):
        return _deal(state, command)
    if state.phase == "dealing":
        raise GameNotStarted("the cards have not been dealt yet")
    if isinstance(command, PassCards):
        return _pass(state, command)
    if isinstance(command, PlayCard):
        return _play(state, command)
    raise IllegalAction(f"{type(command).__name__} is not an action of Trick & Snipers")


def _check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    return seat


def _deal(state: State, command: Deal) -> list[Event]:
    if state.phase != "dealing":
        raise IllegalAction("the cards have already been dealt")
    deck = tuple(command.deck)
    expected = deck_for(state.players)
    # A deal must be exactly this game's cards, each once (G5, T1), in any order.
    if not all(isinstance(card, Card) for card in deck) or sorted(deck) != sorted(expected):
        raise IllegalAction(f"the deck must be a shuffle of the {len(expected)} cards of this game")
    leader = state.first_leader_option
    if leader is None:  # G4: the option wins over the random pick made at the deal
        leader = _check_seat(state, command.first_leader)
    size = HAND_SIZES[state.players]
    hands = [
        HandDealt(seat, deck[seat * size : (seat + 1) * size]) for seat in range(state.players)
    ]
    committed = DealCommitted(
        round=state.round,
        commitment=deal_commitment(command.salt, deck),
        first_leader=leader,
        hand_sizes=(size,) * state.players,
    )
    return [committed, *hands, DeckSealed(state.round, deck, command.salt)]


def _pass(state: State, command: PassCards) -> list[Event]:
    if state.phase != "passing":
        raise IllegalAction("cards are passed only before the first trick")
    seat = _check_seat(state, command.seat)
    if state.passed[seat] is not None:
        raise IllegalAction("you have already passed your cards; a choice cannot be changed")
    cards = tuple(command.cards)
    if len(cards) != PASS_COUNT:
        raise IllegalAction(f"pass exactly {PASS_COUNT} cards, not {len(cards)}")
    _check_held(state.hands[seat], cards)
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card is named more than once")
    events: list[Event] = [CardsPassed(seat, cards)]
    passed = set_at(state.passed, seat, cards)
    if all(choice is not None for choice in passed):
        # G3: the last choice makes every choice take effect at once; T2: to the left.
        n = state.players
        events += [CardsReceived(s, (s - 1) % n, passed[(s - 1) % n]) for s in range(n)]
    return events


def _check_held(hand: tuple[Card, ...], cards: tuple[object, ...]) -> None:
    # Only the caller's own claims are echoed, so no hidden card can leak here.
    for card in cards:
        if not isinstance(card, Card) or card not in hand:
            raise IllegalAction(f"you do not hold {card}")


def _play(state: State, command: PlayCard) -> list[Event]:
    if state.phase != "playing":
        raise IllegalAction("no card can be played while cards are being passed")
    seat = _check_seat(state, command.seat)
    if seat != turn(state):
        raise IllegalAction(f"it is not your turn: seat {turn(state)} plays next")
    hand = state.hands[seat]
    _check_held(hand, (command.card,))
    led = led_suit(state.trick)
    if command.card not in playable_cards(hand, led):
        raise IllegalAction(f"you must follow suit: play a {led} card")
    snipe = is_snipe(state.trick, command.card)
    events: list[Event] = [CardPlayed(seat, command.card, snipe)]
    trick = (*state.trick, Play(seat, command.card))
    if len(trick) < state.players:
        return events
    won = trick_result(trick, seat if snipe else state.last_sniper)
    events.append(won)
    ended = _ending(state, won, hands_left=sum(len(h) for h in state.hands) - 1)
    return events + ([ended] if ended else [])


def is_snipe(trick: Trick, card: Card) -> bool:
    """T4: off the led suit, and adds up to 13 with the card winning the trick right now."""
    winning = highest_of_led(trick)
    return (
        winning is not None
        and card.suit != led_suit(trick)
        and card.rank + winning.card.rank == SNIPE_TOTAL
    )


def _ending(state: State, won: TrickWon, hands_left: int) -> GameEnded | None:
    points = state.victory_points
    if won.point_to is not None:
        points = set_at(points, won.point_to, points[won.point_to] + 1)
    tricks = set_at(state.tricks_won, won.seat, state.tricks_won[won.seat] + 1)
    return game_end(points, tricks, hands_empty=hands_left == 0)
