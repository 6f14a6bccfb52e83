"""Random complete games keep every invariant (O1-O6); events survive the codec unchanged."""

from __future__ import annotations

import json
import random

import pytest

from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import (
    CardPlayed,
    CardsDiscarded,
    GameEnded,
    PoolTaken,
    TrickWon,
)
from domain.games.ouroboros_trick.state import State, deck_for
from domain.kit.cards import Card
from domain.kit.codec import from_json, to_json
from domain.kit.decider import Deal, IllegalAction, fold
from domain.kit.templates import action_from_template
from tests.domain.ouro_support import command_for, play_bot_game
from tests.domain.support import for_each_seed, survives_storage, visible_pairs

Pair = tuple[str, int]


def pairs(cards) -> set[Pair]:
    return {(card.suit, card.rank) for card in cards}


def check_whole_deck(state: State, deck: frozenset[Card]) -> None:
    """Hands, pools, the discard pile and the current trick hold every card exactly once."""
    held = [c for hand in state.hands for c in hand]
    pooled = [c for pool in state.pools for c in pool]
    current = [play.card for play in state.trick]
    everywhere = held + pooled + current + list(state.discards)
    assert len(everywhere) == len(deck) and set(everywhere) == deck


def check_view(state: State, viewer: int | None, dealt: list[set[Pair]], played: set[Pair]):
    """No view shows a card its viewer may not know: outside `you`, only the current trick,
    the last trick and the discard pile's top; in `you`, the seat's own hand and pool."""
    public = pairs(play.card for play in state.trick) | pairs(state.discards[-1:])
    if state.last_trick is not None:
        public |= pairs(play.card for play in state.last_trick.plays)
    table = GAME.view(state, viewer)
    you = table.pop("you", None)
    assert visible_pairs(table) <= public
    assert table["to_act"] == list(GAME.to_act(state))
    if viewer is not None:
        assert visible_pairs(you["hand"]) == pairs(state.hands[viewer])
        assert visible_pairs(you["pool"]) == pairs(state.pools[viewer])
        # everything a seat holds it was dealt or saw played face up
        assert visible_pairs(you) <= dealt[viewer] | played
        assert bool(you["legal_actions"]) == (viewer in GAME.to_act(state))


def check_templates(state: State, seat: int, rng: random.Random) -> None:
    """Every card offered to play is legal and every other one is refused."""
    (template,) = GAME.legal_actions(state, seat)
    offered = [Card.from_json(c) for c in template["cards"]]
    if template["type"] == "discard":
        assert sorted(offered) == sorted(state.hands[seat])
        assert 0 < template["count"] < len(offered)  # asked only when there is a choice
        return
    for card in set(state.hands[seat]) - set(offered):
        with pytest.raises(IllegalAction):
            GAME.decide(state, command_for(seat, {"type": "play_card", "card": card.to_json()}))


def expected_trick(plays: list[CardPlayed]) -> tuple[int, int]:
    """O3 and O4, read independently: (winner, k)."""
    led = plays[0].card.suit
    trumps = [p for p in plays if p.card.suit != led]
    if trumps:
        top = max(p.card.rank for p in trumps)
        winner = [p for p in trumps if p.card.rank == top][-1]
    else:
        winner = max(plays, key=lambda p: p.card.rank)
    return winner.seat, min(p.card.rank for p in plays)


def check_step(before: State, after: State, events: list, plays: list[CardPlayed]) -> None:
    assert after.discards[: len(before.discards)] == before.discards  # the pile only grows
    for won in (e for e in events if isinstance(e, TrickWon)):
        assert (won.seat, won.discard_count) == expected_trick(plays)
        assert len(after.discards) - len(before.discards) <= won.discard_count
    for taken in (e for e in events if isinstance(e, PoolTaken)):
        assert taken.visible_to() == (taken.seat,) and taken.cards
    if GAME.is_terminal(after):
        ended = events[-1]
        assert isinstance(ended, GameEnded)
        empty = tuple(s for s in range(after.players) if not after.hands[s] and not after.pools[s])
        assert ended.losers == empty and empty
        assert ended.winners == tuple(s for s in range(after.players) if s not in empty)
    elif after.phase == "playing" and not after.trick:
        assert all(after.hands)  # O5: every survivor holds a card to play


def play_random_game(players: int, seed: int) -> int:
    """One game of random and basic bots; every step checked, views and templates of one
    viewer chosen at random per step (checking every viewer every step costs 5x the time)."""
    rng = random.Random(seed)
    deck = tuple(rng.sample(deck_for(players), 12 * players))
    levels = [rng.choice(["random", "random", "basic"]) for _ in range(players)]
    state = GAME.new_game(players, {"first_leader": None})
    state = fold(GAME.evolve, state, GAME.decide(state, Deal(deck, "s", rng.randrange(players))))
    dealt = [pairs(hand) for hand in state.hands]
    played: set[Pair] = set()
    plays: list[CardPlayed] = []
    tricks = 0
    while not GAME.is_terminal(state):
        check_whole_deck(state, frozenset(deck))
        check_view(state, rng.choice((None, *range(players))), dealt, played)
        seat = rng.choice(GAME.to_act(state))
        if rng.random() < 0.2:
            check_templates(state, seat, rng)
        if levels[seat] == "basic":
            action = GAME.bots["basic"](GAME.view(state, seat), rng)
        else:
            action = action_from_template(GAME.legal_actions(state, seat)[0], rng)
        events = GAME.decide(state, command_for(seat, action))
        after = fold(GAME.evolve, state, events)
        plays += [e for e in events if isinstance(e, CardPlayed)]
        played |= pairs(e.card for e in events if isinstance(e, CardPlayed))
        check_step(state, after, events, plays)
        if any(isinstance(e, TrickWon) for e in events):
            plays, tricks = [], tricks + 1
        state = after
        assert tricks <= len(deck)  # each trick discards at least one card: the game ends
    check_whole_deck(state, frozenset(deck))
    for viewer in (None, *range(players)):  # once over, the result for everyone
        check_view(state, viewer, dealt, played)
        json.dumps(GAME.view(state, viewer))  # JSON-ready
    return tricks


GAMES_PER_TABLE_SIZE = 334  # 1,002 games in all: about 7 s on one core


@pytest.mark.parametrize("players", [3, 4, 5])
def test_over_a_thousand_random_games_keep_every_invariant(players):
    seeds = range(players * 10_000, players * 10_000 + GAMES_PER_TABLE_SIZE)
    for_each_seed(seeds, lambda seed: play_random_game(players, seed))


def recorded_choice(seat: int, action: dict) -> CardPlayed | CardsDiscarded:
    """The event an action of the seat must be recorded as, first (GameType.choices)."""
    if action["type"] == "play_card":
        return CardPlayed(seat, Card.from_json(action["card"]))
    return CardsDiscarded(seat, tuple(Card.from_json(c) for c in action["cards"]), forced=False)


def check_every_offered_action(state: State, seat: int, rng: random.Random) -> None:
    """Every card a play template offers, and a discard built from its template, is taken as
    exactly that seat's choice."""
    for template in GAME.legal_actions(state, seat):
        if template["type"] == "play_card":
            actions = [{"type": "play_card", "card": card} for card in template["cards"]]
        else:
            actions = [action_from_template(template, rng)]
        for action in actions:
            events = GAME.decide(state, command_for(seat, action))
            assert events[0] == recorded_choice(seat, action), (action, events)


def test_an_action_built_from_any_template_is_legal():
    for seed in range(60):
        rng = random.Random(seed)
        players = 3 + seed % 3
        state = GAME.new_game(players, {"first_leader": None})
        deck = tuple(rng.sample(deck_for(players), 12 * players))
        state = fold(GAME.evolve, state, GAME.decide(state, Deal(deck, "s", 0)))
        while not GAME.is_terminal(state):
            seat = GAME.to_act(state)[0]
            check_every_offered_action(state, seat, rng)
            template = rng.choice(GAME.legal_actions(state, seat))
            events = GAME.decide(state, command_for(seat, action_from_template(template, rng)))
            state = fold(GAME.evolve, state, events)


def test_every_event_of_a_whole_game_survives_the_codec_unchanged():
    for players in (3, 4, 5):
        _, events = play_bot_game(players, seed=players, levels=["basic"] * players)
        for event in events:
            assert survives_storage(GAME, event), event


def test_a_state_survives_the_snapshot_codec_unchanged():
    state, _ = play_bot_game(4, seed=11, levels=["random"] * 4)
    assert from_json(State, json.loads(json.dumps(to_json(state)))) == state
