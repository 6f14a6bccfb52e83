"""St Patrick decide: validates a command and returns every event it causes. The deal and the
card passing (S2, S3) are here; the relic phase, the hunt and the scoring have modules of their
own."""

from __future__ import annotations

from domain.games.st_patrick.events import (
    ChoosePassCount,
    PassCards,
    PassCountAwaited,
    PassCountSet,
    PassRelics,
    RelicPhaseStarted,
    TakeRelics,
)
from domain.games.st_patrick.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.st_patrick.hunt import play_card
from domain.games.st_patrick.relics import decline_relics, take_relics
from domain.games.st_patrick.scoring import score_round
from domain.games.st_patrick.state import (
    DECK,
    FIRST_ROUND_PASS,
    HAND_SIZES,
    MAX_PASS,
    ST_PATRICK,
    State,
    holder_of,
)
from domain.kit.checks import check_count, check_seat
from domain.kit.decider import Automatic, Command, Deal, Event, IllegalAction, fold
from domain.kit.dispatch import Handler, decide_command
from domain.shared.dealing import checked_deck, deal_events
from domain.shared.passing import pass_cards
from domain.shared.tricks import PlayCard

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    handlers: dict[type[Command], Handler[State]] = {
        Automatic: lambda state, command: score_round(state, command.kind),
        ChoosePassCount: _choose_pass_count,
        PassCards: _pass,
        TakeRelics: take_relics,
        PassRelics: decline_relics,
        PlayCard: play_card,
    }
    return decide_command(state, command, "St Patrick", _deal, handlers)


def _deal(state: State, command: Deal) -> list[Event]:
    cards = checked_deck(command.deck, DECK, "St Patrick cards")
    sizes = (HAND_SIZES[state.players],) * state.players  # S2: every card is dealt
    round_number = state.round + 1
    dealt = deal_events(round_number, cards, command.salt, sizes)
    return [*dealt, _pass_count_rule(state, round_number)]


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
    seat = check_seat(command.seat, state.players)
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
    events = pass_cards(state, command.seat, command.cards, state.pass_count, evolve)  # S3
    after = fold(evolve, state, events)
    if any(cards is None for cards in after.received):
        return events
    return [*events, RelicPhaseStarted(1, holder_of(after.hands, ST_PATRICK))]
