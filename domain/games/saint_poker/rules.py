"""Saint Poker decide: validates a command and returns every event it causes."""

from __future__ import annotations

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
    SCORING,
    State,
    on_the_table,
    picker,
)
from domain.kit.cards import Card
from domain.kit.checks import check_held, check_seat, check_secret_choice
from domain.kit.decider import Automatic, Command, Event, IllegalAction
from domain.kit.dispatch import Handler, decide_command

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    handlers: dict[type[Command], Handler[State]] = {
        CommitRiverCard: _commit,
        RevealCards: _reveal,
        PickUp: _pick_up,
    }
    if isinstance(command, Automatic) and command.kind == SCORING:  # no other automatic work
        handlers[Automatic] = lambda state, _: _score(state)
    return decide_command(state, command, "Saint Poker", deal, handlers)


def _commit(state: State, command: CommitRiverCard) -> list[Event]:
    if state.phase != "committing":
        raise IllegalAction("river cards are committed only at the start of a round")
    seat = check_seat(command.seat, state.players)
    if state.committed[seat] is not None:
        raise IllegalAction("you have already committed your river card; it cannot be changed")
    check_held(state.hands[seat], (command.card,))
    committed = RiverCardCommitted(seat, command.card)
    everyone = evolve(state, committed).committed
    river = tuple(card for card in everyone if card is not None)
    if len(river) == len(everyone):  # G3: all take effect at once
        return [committed, RiverCompleted(state.round, river)]
    return [committed]


def _reveal(state: State, command: RevealCards) -> list[Event]:
    if state.phase != "revealing":
        raise IllegalAction("cards are revealed only once the river is complete")
    seat, cards = check_secret_choice(
        state.chosen, state.hands, command.seat, command.cards, REVEAL_COUNT, "reveal"
    )
    chosen = RevealChosen(seat, cards)
    everyone = evolve(state, chosen).chosen
    revealed = tuple(choice for choice in everyone if choice is not None)
    if len(revealed) == len(everyone):
        return [chosen, CardsRevealed(state.round, revealed)]
    return [chosen]


def _score(state: State) -> list[Event]:
    if state.phase != SCORING:
        raise IllegalAction("there is no round to score now")
    scored = score_round(state.round, state.river, state.revealed, state.points)
    if scored.pickup_order:
        return [scored]
    return [scored, game_end(evolve(state, scored).points)]  # P6: no pickup after the last


def _pick_up(state: State, command: PickUp) -> list[Event]:
    if state.phase != "pickup":
        raise IllegalAction("cards are picked up only after a round is scored")
    seat = check_seat(command.seat, state.players)
    if seat != picker(state):
        raise IllegalAction(f"it is not your turn: seat {picker(state)} picks up next")
    table = on_the_table(state)
    if not isinstance(command.card, Card) or command.card not in table:
        raise IllegalAction(f"{command.card} is not on the table")
    picked = CardPickedUp(seat, command.card)
    after = evolve(state, picked)
    if after.picks_made < len(after.pickup_order):
        return [picked]
    size = FUTURE_RIVER_SIZES[state.players]
    following = start_round(state.round + 1, state.future_river, state.deck, size)
    return [picked, RoundEnded(state.round, on_the_table(after)), following]
