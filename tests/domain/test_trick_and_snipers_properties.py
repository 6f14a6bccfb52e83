"""Random complete games keep every invariant; events survive the codec unchanged."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import CardPlayed, GameEnded, TrickWon
from domain.games.trick_and_snipers.state import State, deck_for
from domain.kit.cards import Card
from domain.kit.decider import Deal, IllegalAction, fold
from domain.kit.templates import action_from_template
from tests.domain.support import for_each_seed, survives_storage, visible_pairs
from tests.domain.tns_support import command_for, play_bot_game


def all_cards(state: State) -> Counter:
    pending = [c for cs in state.passed if cs and state.phase == "passing" for c in cs]
    held = [c for hand in state.hands for c in hand]
    won = [play.card for trick in state.won for play in trick.plays]
    current = [play.card for play in state.trick]
    return Counter(held + pending + won + current + list(state.leftover))


def known_to(state: State, seat: int | None) -> set[tuple[str, int]]:
    known = {play.card for trick in state.won for play in trick.plays}
    known |= {play.card for play in state.trick}
    if GAME.is_terminal(state):
        known |= set(state.leftover)
    if seat is not None:
        known |= (
            set(state.hands[seat]) | set(state.passed[seat] or ()) | set(state.received[seat] or ())
        )
    return {(card.suit, card.rank) for card in known}


def check_state(state: State, deck: tuple[Card, ...], viewers: tuple[int | None, ...]) -> None:
    """The whole state, and the views of `viewers` (one drawn at random per step: over a
    thousand games every viewer is checked in every phase many times over)."""
    assert all_cards(state) == Counter(deck)  # every card exactly once
    assert all(points <= 2 for points in state.victory_points)
    assert sum(state.victory_points) <= len(state.won)  # at most one point per trick
    for seat in viewers:
        table = GAME.view(state, seat)
        assert visible_pairs(table) <= known_to(state, seat)
        assert table["to_act"] == list(GAME.to_act(state))
    for seat in range(state.players):
        assert bool(GAME.legal_actions(state, seat)) == (seat in GAME.to_act(state))


def check_templates(state: State, seat: int, rng: random.Random) -> None:
    """Every action built from a template is legal; every other card is refused."""
    (template,) = GAME.legal_actions(state, seat)
    offered = [Card.from_json(c) for c in template["cards"]]
    if template["type"] == "play_card":
        for card in offered:
            GAME.decide(state, command_for(seat, {"type": "play_card", "card": card.to_json()}))
        for card in set(state.hands[seat]) - set(offered):
            try:
                GAME.decide(state, command_for(seat, {"type": "play_card", "card": card.to_json()}))
            except IllegalAction:
                continue
            raise AssertionError(f"{card} was playable but not offered")
    else:
        assert sorted(offered) == sorted(state.hands[seat])
        GAME.decide(state, command_for(seat, action_from_template(template, rng)))


def expected_trick(plays: list[CardPlayed]) -> tuple[int, int | None]:
    """An independent reading of T3-T5: (winner, point_to)."""
    led = plays[0].card.suit
    winner, sniper = plays[0], None
    for play in plays[1:]:
        if play.card.suit == led and play.card.rank > winner.card.rank:
            winner = play
        elif play.card.suit != led and play.card.rank + winner.card.rank == 13:
            sniper = play.seat
        assert play.snipe == (play.card.suit != led and sniper == play.seat)
    if sniper is None and any(play.card.rank == 7 for play in plays):
        return winner.seat, winner.seat
    return winner.seat, sniper


def check_ending(state: State, events: list) -> None:
    """T6, read independently of the implementation."""
    ended = [e for e in events if isinstance(e, GameEnded)]
    if not any(isinstance(e, TrickWon) for e in events):
        assert not ended
        return
    points, tricks = state.victory_points, state.tricks_won
    if max(points) >= 2:
        assert ended and ended[0].winners == (points.index(2),)
    elif all(not hand for hand in state.hands):
        best = max(zip(points, tricks, strict=True))
        keys = list(zip(points, tricks, strict=True))
        assert ended and ended[0].winners == tuple(s for s, k in enumerate(keys) if k == best)
    else:
        assert not ended
    if ended:
        assert sorted(ended[0].winners + ended[0].losers) == list(range(state.players))
        assert events[-1] == ended[0] and GAME.is_terminal(state)


def play_random_game(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = list(deck_for(players))
    rng.shuffle(deck)
    state = GAME.new_game(players, {"first_leader": None})
    state = fold(
        GAME.evolve, state, GAME.decide(state, Deal(tuple(deck), "s", rng.randrange(players)))
    )
    plays: list[CardPlayed] = []
    while not GAME.is_terminal(state):
        check_state(state, tuple(deck), (rng.choice((None, *range(players))),))
        seat = rng.choice(GAME.to_act(state))
        check_templates(state, seat, rng)
        action = action_from_template(rng.choice(GAME.legal_actions(state, seat)), rng)
        events = GAME.decide(state, command_for(seat, action))
        state = fold(GAME.evolve, state, events)
        plays += [e for e in events if isinstance(e, CardPlayed)]
        for won in (e for e in events if isinstance(e, TrickWon)):
            assert (won.seat, won.point_to) == expected_trick(plays)
            assert won.face_up == (won.point_to is not None)
            plays = []
        check_ending(state, events)
    check_state(state, tuple(deck), (None, *range(players)))  # once over, the result for all
    json.dumps([GAME.view(state, seat) for seat in (None, *range(players))])  # JSON-ready


GAMES_PER_TABLE_SIZE = 334  # 1,002 games in all


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_complete_games_keep_every_invariant(players):
    seeds = range(players * 10_000, players * 10_000 + GAMES_PER_TABLE_SIZE)
    for_each_seed(seeds, lambda seed: play_random_game(players, seed))


def test_every_event_of_a_whole_game_survives_the_codec_unchanged():
    for players in (3, 4, 5):
        _, events = play_bot_game(players, seed=players, levels=["basic"] * players)
        for event in events:
            assert survives_storage(GAME, event), event
