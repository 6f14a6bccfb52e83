"""Saint Poker decide: validates a command and returns every event it causes."""

from __future__ import annotations

from domain.cards import Card, remove_cards
from domain.decider import (
    Automatic,
    Command,
    Deal,
    Event,
    GameFinished,
    GameNotStarted,
    IllegalAction,
)
from domain.games.saint_poker.deal import deal, start_round
from domain.games.saint_poker.events import (
    CardPickedUp,
    CardsRevealed,
    CommitRiverCard,
    PickUp,
    RevealCards,
    RevealChosen,
    RiverCardCommitted,
    RiverCompleted,
    RoundEnded,
)
from domain.games.saint_poker.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.saint_poker.scoring import game_end, score_round
from domain.games.saint_poker.state import (
    FUTURE_RIVER_SIZES,
    REVEAL_COUNT,
    State,
    is_terminal,
    on_the_table,
    picker,
    set_at,
)

__all__ = ["decide", "evolve"]
SCORING = "scoring"


def decide(state: State, command: Command) -> list[Event]:
    if is_terminal(state):
        raise GameFinished("the game is over")
    if isinstance(command, Deal):
        return deal(state, command)
    if state.phase == "dealing":
        raise GameNotStarted("the cards have not been dealt yet")
    if isinstance(command, CommitRiverCard):
        return _commit(state, command)
    if isinstance(command, RevealCards):
        return _reveal(state, command)
    if isinstance(command, PickUp):
        return _pick_up(state, command)
    if isinstance(command, Automatic) and command.kind == SCORING:
        return _score(state)
    raise IllegalAction(f"{type(command).__name__} is not an action of Saint Poker")


def _check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    return seat


def _check_held(hand: tuple[Card, ...], cards: tuple[object, ...]) -> None:
    # Only the caller's own claims are echoed, so no hidden card can leak here.
    for card in cards:
        if not isinstance(card, Card) or card not in hand:
            raise IllegalAction(f"you do not hold {card}")


def _commit(state: State, command: CommitRiverCard) -> list[Event]:
    if state.phase != "committing":
        raise IllegalAction("river cards are committed only at the start of a round")
    seat = _check_seat(state, command.seat)
    if state.committed[seat] is not None:
        raise IllegalAction("you have already committed your river card; it cannot be changed")
    _check_held(state.hands[seat], (command.card,))
    events: list[Event] = [RiverCardCommitted(seat, command.card)]
    committed = set_at(state.committed, seat, command.card)
    if all(card is not None for card in committed):  # G3: all take effect at once
        events.append(RiverCompleted(state.round, tuple(committed)))  # type: ignore[arg-type]
    return events


def _reveal(state: State, command: RevealCards) -> list[Event]:
    if state.phase != "revealing":
        raise IllegalAction("cards are revealed only once the river is complete")
    seat = _check_seat(state, command.seat)
    if state.chosen[seat] is not None:
        raise IllegalAction("you have already chosen your cards; a choice cannot be changed")
    cards = tuple(command.cards)
    if len(cards) != REVEAL_COUNT:
        raise IllegalAction(f"reveal exactly {REVEAL_COUNT} cards, not {len(cards)}")
    _check_held(state.hands[seat], cards)
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card is named more than once")
    events: list[Event] = [RevealChosen(seat, cards)]
    chosen = set_at(state.chosen, seat, cards)
    if all(choice is not None for choice in chosen):
        events.append(CardsRevealed(state.round, tuple(chosen)))  # type: ignore[arg-type]
    return events


def _score(state: State) -> list[Event]:
    if state.phase != SCORING:
        raise IllegalAction("there is no round to score now")
    scored = score_round(state.round, state.river, state.revealed, state.points)
    if scored.pickup_order:
        return [scored]
    totals = [total + new for total, new in zip(state.points, scored.points, strict=True)]
    return [scored, game_end(totals)]  # P6: no pickup after the last round


def _pick_up(state: State, command: PickUp) -> list[Event]:
    if state.phase != "pickup":
        raise IllegalAction("cards are picked up only after a round is scored")
    seat = _check_seat(state, command.seat)
    if seat != picker(state):
        raise IllegalAction(f"it is not your turn: seat {picker(state)} picks up next")
    table = on_the_table(state)
    if not isinstance(command.card, Card) or command.card not in table:
        raise IllegalAction(f"{command.card} is not on the table")
    events: list[Event] = [CardPickedUp(seat, command.card)]
    if state.picks_made + 1 < len(state.pickup_order):
        return events
    left = remove_cards(table, [command.card])
    size = FUTURE_RIVER_SIZES[state.players]
    following = start_round(state.round + 1, state.future_river, state.deck, size)
    return [*events, RoundEnded(state.round, left), following]
