"""The relic phase (S4) and the curse that ends it when the middle runs empty (S5)."""

from __future__ import annotations

from domain.games.st_patrick.events import (
    HandPassed,
    HuntStarted,
    PassRelics,
    RelicPhaseStarted,
    RelicsCursed,
    RelicsDeclined,
    RelicsTaken,
    TakeRelics,
)
from domain.games.st_patrick.evolve import evolve
from domain.games.st_patrick.state import ST_PATRICK, State, holder_of
from domain.kit.checks import check_count, check_seat
from domain.kit.decider import Event, IllegalAction, fold


def _check_turn(state: State, seat: object) -> int:
    checked = check_seat(seat, state.players)
    if state.phase != "relics":
        raise IllegalAction("relics are taken only in the relic phase")
    if checked != state.relic_turn:
        raise IllegalAction(f"it is not your turn: seat {state.relic_turn} acts on the relics")
    return checked


def take_relics(state: State, command: TakeRelics) -> list[Event]:
    seat = _check_turn(state, command.seat)
    count = check_count(command.count, 1, state.relics_left)
    taken = RelicsTaken(seat, count, state.relics_left - count)
    if taken.left > 0:
        return [taken]
    return [taken, *curse(evolve(state, taken))]  # S4 (B): the moment the middle is empty


def decline_relics(state: State, command: PassRelics) -> list[Event]:
    declined = RelicsDeclined(_check_turn(state, command.seat))
    # S4 (A): after a take, the N-1 others pass in turn (the taker is not asked again);
    # without any take, all N pass in turn.
    needed = state.players - 1 if state.taken_this_phase else state.players
    if evolve(state, declined).passes_in_a_row < needed:
        return [declined]
    return [declined, HuntStarted(holder_of(state.hands, ST_PATRICK), special=False)]


def curse(state: State) -> list[Event]:
    """S5, once the middle is empty: life lost per relic held, whole hands to the left, then a
    new relic phase from the new holder of clover 7 -- or, at the N-th curse of the round, when
    the hands are back with the seats that held them before the first curse, the special hunt
    (S6) with relics kept."""
    number, held, n = state.curses + 1, state.relics, state.players
    life = tuple(have - lost for have, lost in zip(state.life, held, strict=True))
    events: list[Event] = [RelicsCursed(number, held, life)]
    events += [HandPassed(s, (s - 1) % n, state.hands[(s - 1) % n]) for s in range(n)]
    starter = holder_of(fold(evolve, state, events).hands, ST_PATRICK)
    if number == n:
        return [*events, HuntStarted(starter, special=True)]
    return [*events, RelicPhaseStarted(number + 1, starter)]
