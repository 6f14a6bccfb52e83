"""High Card, a two-player game small enough to read at once: a deck of the four "star" cards,
two for each seat; the leader (picked at the deal) plays, the other answers; the higher card
takes the trick and leads the next; after two tricks the seat with more tricks wins (a tie:
both). Built only from the kit every game uses."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

from domain.kit.build import build_game
from domain.kit.cards import Card, build_deck, cards_json
from domain.kit.decider import Command, Deal, Event, fold
from domain.kit.dispatch import decide_command, evolver
from domain.kit.game_state import DEALING, Outcome
from domain.kit.game_view import game_view, you_json
from domain.kit.outcome import GameEnded, game_ended
from domain.shared.dealing import (
    DealCommitted,
    DeckSealed,
    HandDealt,
    checked_deck,
    deal_events,
    first_leader,
    hand_dealt,
)
from domain.shared.tricks import PlayCard, Trick, card_played, card_turn, checked_play, plays_json
from domain.shared.tuples import set_at

DECK = build_deck(["stars"], range(1, 5))


@dataclass(frozen=True, slots=True)
class State:
    players: int
    phase: str = DEALING
    round: int = 1
    commitment: str | None = None
    hands: tuple[tuple[Card, ...], ...] = ((), ())
    outcome: Outcome | None = None
    leader: int | None = None
    trick: Trick = ()
    tricks_won: tuple[int, ...] = (0, 0)


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    seat: int
    cards: tuple[Card, ...]


def _decide(state: State, command: Command) -> list[Event]:
    return decide_command(state, command, "High Card", _deal, {PlayCard: _play})


def _deal(state: State, command: Deal) -> list[Event]:
    deck = checked_deck(command.deck, DECK, "star cards")
    leader = first_leader(None, command.first_leader, state.players)
    return deal_events(1, deck, command.salt, (2, 2), leader)


def _play(state: State, command: PlayCard) -> list[Event]:
    seat = checked_play(state, command.seat, command.card)
    played = CardPlayed(seat, command.card)
    if not state.trick:
        return [played]
    trick = fold(evolve, state, [played]).trick
    best = max(trick, key=lambda play: play.card.rank)
    taken = TrickTaken(best.seat, tuple(play.card for play in trick))
    after = fold(evolve, state, [played, taken])
    return [played, taken, *_ending(after)]


def _ending(state: State) -> list[Event]:
    if any(state.hands):
        return []
    most = max(state.tricks_won)
    winners = tuple(s for s in range(2) if state.tricks_won[s] == most)
    final = {str(s): {"tricks": state.tricks_won[s]} for s in range(2)}
    return [GameEnded(winners, tuple(s for s in range(2) if s not in winners), final)]


def _taken(state: State, event: TrickTaken) -> State:
    won = set_at(state.tricks_won, event.seat, state.tricks_won[event.seat] + 1)
    return replace(state, trick=(), leader=event.seat, tricks_won=won)


evolve = evolver(
    {
        DealCommitted: lambda s, e: replace(
            s, phase="playing", commitment=e.commitment, leader=e.first_leader
        ),
        HandDealt: hand_dealt,
        CardPlayed: lambda s, e: card_played(s, e.seat, e.card),
        TrickTaken: _taken,
        GameEnded: game_ended,
    },
    ignored=(DeckSealed,),
)


def to_act(state: State) -> tuple[int, ...]:
    seat = card_turn(state)
    return () if seat is None else (seat,)


def legal_actions(state: State, seat: int) -> list[dict]:
    if card_turn(state) != seat:
        return []
    return [{"type": "play_card", "cards": cards_json(sorted(state.hands[seat]))}]


def view(state: State, seat: int | None = None) -> dict:
    seats = [
        {"seat": s, "hand_count": len(state.hands[s]), "tricks_won": state.tricks_won[s]}
        for s in range(state.players)
    ]
    public = {"seats": seats, "trick": plays_json(state.trick), "leader": state.leader}

    def you(s: int) -> dict:
        return you_json(s, cards_json(sorted(state.hands[s])), legal_actions(state, s))

    return game_view(state, seat, to_act(state), public, you)


GAME = build_game(
    id="high_card",
    name="High Card",
    table_sizes=(2,),
    options={},
    state_type=State,
    new_state=lambda players, options: State(players),
    deck_for=lambda players: DECK,
    commands={"play_card": PlayCard},
    events=(DealCommitted, HandDealt, DeckSealed, CardPlayed, TrickTaken, GameEnded),
    choices={"CardPlayed": "play_card"},
    rules=SimpleNamespace(decide=_decide, evolve=evolve),
    views=SimpleNamespace(view=view, legal_actions=legal_actions),
    to_act=to_act,
    bots={},
    guide=__doc__ or "",  # its rules page: the folder's own words
)
