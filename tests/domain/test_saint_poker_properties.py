"""Random complete games (domain.tables.selfplay, scoring included) keep every invariant; events
survive the codec unchanged."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import (
    CardPickedUp,
    CardsRevealed,
    GameEnded,
    RiverCompleted,
    RoundEnded,
    RoundScored,
    RoundStarted,
)
from domain.games.saint_poker.state import DECK, State
from domain.kit.codec import from_json, to_json
from domain.kit.game_type import Bot, GameType
from domain.tables.selfplay import bot_table, play_out, steps
from domain.tables.view import view_table
from tests.domain.support import for_each_seed, survives_storage, visible_pairs

ALL_CARDS = frozenset(DECK)


def all_cards(state: State) -> list:
    pending = [c for c in state.committed if c is not None]
    pending += [c for cs in state.chosen if cs for c in cs]
    held = [c for hand in state.hands for c in hand]
    revealed = [c for cs in state.revealed for c in cs]
    table = list(state.deck + state.river + state.future_river + state.discarded)
    return held + pending + revealed + table


def made_public(event) -> list:
    """The cards an event turns face up for everyone."""
    if isinstance(event, RoundStarted):
        return [*event.river, *event.future_river]
    if isinstance(event, RiverCompleted):
        return list(event.cards)
    if isinstance(event, CardsRevealed):
        return [c for cards in event.cards for c in cards]
    if isinstance(event, CardPickedUp):
        return [event.card]
    if isinstance(event, RoundEnded):
        return list(event.discarded)
    return []


def pairs(cards) -> set[tuple[str, int]]:
    return {(card.suit, card.rank) for card in cards}


def known_to(state: State, seat: int | None, public: set) -> set[tuple[str, int]]:
    if GAME.is_terminal(state):
        return pairs(DECK)
    if seat is None:
        return public
    own = [*state.hands[seat], *(state.chosen[seat] or ())]
    if state.committed[seat] is not None:
        own.append(state.committed[seat])
    return public | pairs(own)


def check_hand_sizes(state: State) -> None:
    for seat in range(state.players):
        mine = len(state.hands[seat]) + (state.committed[seat] is not None)
        if state.phase == "committing":
            assert mine == 11 - state.round  # 10 in round 1 down to 3 in round 8
        if state.phase == "revealing":
            held = len(state.hands[seat]) + len(state.chosen[seat] or ())
            assert held == 10 - state.round  # down to exactly the 2 cards revealed last


def check_scoring(scored: RoundScored) -> None:
    """P4, read independently: t winners of round r get ceil(r / t) each."""
    best = max(hand.strength for hand in scored.ranking)
    winners = [hand.seat for hand in scored.ranking if hand.strength == best]
    share = -(-scored.round // len(winners))
    assert sorted(scored.points) == sorted(
        [share] * len(winners) + [0] * (len(scored.points) - len(winners))
    )
    assert all(scored.points[seat] == share for seat in winners)
    assert all(hand.place == 1 for hand in scored.ranking if hand.seat in winners)


class Watch:
    """What the test knows between two steps: the state, and every card turned face up."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.public: set[tuple[str, int]] = set()

    def check_view(self, view: dict, viewer: int | None) -> None:
        assert visible_pairs(view) <= known_to(self.state, viewer, self.public), (viewer, view)
        if viewer is not None:
            assert bool(view["you"]["legal_actions"]) == (viewer in view["to_act"])


def watched_game(watch: Watch) -> GameType:
    """Saint Poker whose bots first check the very view they are handed (the one the API shows
    their seat): every bot decision checks a view at no extra cost."""

    def watching(bot: Bot) -> Bot:
        def play(view: dict, rng, budget=None) -> dict:
            watch.check_view(view, view["you"]["seat"])
            return bot(view, rng, budget)

        return play

    bots = {level: watching(bot) for level, bot in GAME.bots.items()}
    return replace(GAME, bots=bots)


def play_and_check(players: int, seed: int, levels: list[str]) -> None:
    rng = random.Random(seed)
    table, _ = bot_table(GAME, levels)
    watch = Watch(table.game)
    table = replace(table, game_type=watched_game(watch))
    rounds: list[int] = []
    totals = [0] * players
    for step in steps(table, rng):
        table, state = step.table, step.table.game
        watch.state = state
        for event in step.events:
            watch.public |= pairs(made_public(event))
            if isinstance(event, RoundScored):
                check_scoring(event)
                rounds.append(event.round)
                totals = [t + p for t, p in zip(totals, event.points, strict=True)]
                # A spectator and a seat that is not acting next, once a round.
                for viewer in (None, rng.randrange(players)):
                    watch.check_view(view_table(table, viewer), viewer)
        everything = all_cards(state)
        assert len(everything) == len(ALL_CARDS) and set(everything) == ALL_CARDS  # each once
        check_hand_sizes(state)
        assert list(state.points) == totals
    assert GAME.is_terminal(table.game) and rounds == list(range(1, 9))
    assert all(len(hand) == 0 for hand in table.game.hands)  # the last 2 were revealed
    ended = table.game.outcome
    best = max(totals)
    assert ended.winners == tuple(s for s in range(players) if totals[s] == best)


GAMES_PER_TABLE_SIZE = 250  # 1,000 games in all


def levels_for(players: int, seed: int) -> list[str]:
    levels = ["random"] * players
    if seed % 4 == 0:  # a basic seat in a quarter of the games (it is the slower bot)
        levels[seed // 4 % players] = "basic"
    return levels


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_complete_games_keep_every_invariant(players):
    seeds = range(players * 10_000, players * 10_000 + GAMES_PER_TABLE_SIZE)
    for_each_seed(seeds, lambda seed: play_and_check(players, seed, levels_for(players, seed)))


def test_every_event_of_a_whole_game_survives_the_codec_unchanged():
    for players in (2, 3, 4, 5):
        table, events = play_out(GAME, ["basic"] * players, random.Random(players))
        assert isinstance(events[-1], GameEnded)
        for event in events:
            if type(event).__name__ not in GAME.events:
                continue  # the table's own events
            assert survives_storage(GAME, event), event
        snapshot = json.loads(json.dumps(to_json(table.game)))
        assert from_json(State, snapshot) == table.game
