"""St Patrick decide: validates a command and returns every event it causes. The deal and the
card passing (S2, S3) are here; the relic phase, the hunt and the scoring have modules of their
own."""

from __future__ import annotations

from domain.checks import check_count, check_seat, check_secret_choice
from domain.dealing import checked_deck, deal_events
from domain.decider import (
    Automatic,
    Command,
    Deal,
    Event,
    IllegalAction,
)
from domain.dispatch import decide_command
from domain.games.st_patrick.commands import (
    ChoosePassCount,
    PassCards,
    PassRelics,
    PlayCard,
    TakeRelics,
)
from domain.games.st_patrick.events import (
    CardsPassed,
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
)
from domain.passing import passed_left
from domain.tuples import set_at

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    handlers = {
        Automatic: lambda state, command: score_round(state, command.kind),
        ChoosePassCount: _choose_pass_count,
        PassCards: _pass,
        TakeRelics: take_relics,
        PassRelics: decline_relics,
        PlayCard: play_card,
    }
    return decide_command(state, command, "St Patrick", _deal, handlers)


def _deal(state: State, command: Deal) -> list[Event]:
    cards = checked_deck(command.deck, deck(), "St Patrick cards")
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
    seat, cards = check_secret_choice(
        state.passed, state.hands, command.seat, command.cards, state.pass_count, "pass"
    )
    events: list[Event] = [CardsPassed(seat, cards)]
    passed = set_at(state.passed, seat, cards)
    if any(choice is None for choice in passed):
        return events
    # G3: the last choice makes every choice take effect at once, to the left (S3).
    events += passed_left(passed)
    n = state.players
    hands = tuple(
        tuple(c for c in state.hands[s] if c not in passed[s]) + passed[(s - 1) % n]
        for s in range(n)
    )
    return [*events, RelicPhaseStarted(1, holder_of(hands, ST_PATRICK))]
