"""St Patrick decide: validates a command and returns every event it causes. The deal and the
card passing (S2, S3) are here; the relic phase, the hunt and the scoring have modules of their
own."""

from __future__ import annotations

from domain.cards import Card
from domain.codec import deal_commitment
from domain.decider import (
    Automatic,
    Command,
    Deal,
    Event,
    GameFinished,
    GameNotStarted,
    IllegalAction,
)
from domain.games.st_patrick.checks import check_cards_held, check_count, check_seat
from domain.games.st_patrick.commands import (
    ChoosePassCount,
    PassCards,
    PassRelics,
    PlayCard,
    TakeRelics,
)
from domain.games.st_patrick.events import (
    CardsPassed,
    CardsReceived,
    DealCommitted,
    DeckSealed,
    HandDealt,
    PassCountAwaited,
    PassCountSet,
    RelicPhaseStarted,
)
from domain.games.st_patrick.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.st_patrick.hunt import play_card
from domain.games.st_patrick.relics import decline_relics, take_relics
from domain.games.st_patrick.scoring import score_round
from domain.games.st_patrick.state import (
    FIRST_ROUND_PASS,
    HAND_SIZES,
    MAX_PASS,
    ST_PATRICK,
    State,
    deck,
    holder_of,
    is_terminal,
    set_at,
)

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    if is_terminal(state):
        raise GameFinished("the game is over")
    if isinstance(command, Deal):
        return _deal(state, command)
    if state.phase == "dealing":
        raise GameNotStarted("the cards have not been dealt yet")
    if isinstance(command, Automatic):
        return score_round(state, command.kind)
    handlers = {
        ChoosePassCount: _choose_pass_count,
        PassCards: _pass,
        TakeRelics: take_relics,
        PassRelics: decline_relics,
        PlayCard: play_card,
    }
    handler = handlers.get(type(command))
    if handler is None:
        raise IllegalAction(f"{type(command).__name__} is not an action of St Patrick")
    return handler(state, command)


def _deal(state: State, command: Deal) -> list[Event]:
    if state.phase != "dealing":
        raise IllegalAction("the cards have already been dealt")
    cards = tuple(command.deck)
    if not all(isinstance(card, Card) for card in cards) or sorted(cards) != sorted(deck()):
        raise IllegalAction("the deck must be a shuffle of the 36 St Patrick cards")
    size = HAND_SIZES[state.players]  # S2: every card is dealt
    round_number = state.round + 1
    hands = [HandDealt(s, cards[s * size : (s + 1) * size]) for s in range(state.players)]
    committed = DealCommitted(
        round=round_number,
        commitment=deal_commitment(command.salt, cards),
        hand_sizes=(size,) * state.players,
    )
    sealed = DeckSealed(round_number, cards, command.salt)
    return [committed, *hands, sealed, _pass_count_rule(state, round_number)]


def _pass_count_rule(state: State, round_number: int) -> Event:
    """S3: one card in round 1; later the single lowest-life seat chooses; a tie means one."""
    if round_number == 1:
        return PassCountSet(FIRST_ROUND_PASS, None)
    lowest = min(state.life)
    at_lowest = [seat for seat, life in enumerate(state.life) if life == lowest]
    if len(at_lowest) == 1:
        return PassCountAwaited(at_lowest[0])
    return PassCountSet(FIRST_ROUND_PASS, None)


def _choose_pass_count(state: State, command: ChoosePassCount) -> list[Event]:
    seat = check_seat(state, command.seat)
    if state.phase != "choosing_pass_count" or seat != state.pass_chooser:
        raise IllegalAction("only the single player with the lowest life chooses, after the deal")
    count = check_count(command.count, 0, MAX_PASS)
    chosen = PassCountSet(count, seat)
    if count == 0:  # S3: nothing to pass, straight to the relics
        return [chosen, RelicPhaseStarted(1, holder_of(state.hands, ST_PATRICK))]
    return [chosen]


def _pass(state: State, command: PassCards) -> list[Event]:
    if state.phase != "passing":
        raise IllegalAction("cards are passed only right after the deal")
    seat = check_seat(state, command.seat)
    if state.passed[seat] is not None:
        raise IllegalAction("you have already passed your cards; a choice cannot be changed")
    cards = tuple(command.cards)
    if len(cards) != state.pass_count:
        raise IllegalAction(f"pass exactly {state.pass_count} card(s), not {len(cards)}")
    check_cards_held(state.hands[seat], cards)
    events: list[Event] = [CardsPassed(seat, cards)]
    passed = set_at(state.passed, seat, cards)
    if any(choice is None for choice in passed):
        return events
    # G3: the last choice makes every choice take effect at once, to the left (S3).
    n = state.players
    events += [CardsReceived(s, (s - 1) % n, passed[(s - 1) % n]) for s in range(n)]
    hands = tuple(
        tuple(c for c in state.hands[s] if c not in passed[s]) + passed[(s - 1) % n]
        for s in range(n)
    )
    return [*events, RelicPhaseStarted(1, holder_of(hands, ST_PATRICK))]
