"""The strong bots' compact simulators follow the real rules: from any state of a game of basic
bots, playing the rest out in the simulator ends as the real game did (the basic bot draws no
randomness, so the same hands make the same moves)."""

from __future__ import annotations

import random

from domain.games import get_game_type
from domain.games.ouroboros_trick.simulator import Game
from domain.games.ouroboros_trick.simulator import shown as ouro_shown
from domain.games.st_patrick.simulator import Round
from domain.games.st_patrick.simulator import shown as stp_shown
from domain.games.st_patrick.state import bites, snakes_won
from domain.games.trick_and_snipers.bots import choose_play
from domain.games.trick_and_snipers.simulator import Sim
from domain.games.trick_and_snipers.simulator import shown as tns_shown
from domain.games.trick_and_snipers.state import HAND_SIZES, deck_for
from domain.tables import selfplay


def test_the_trick_and_snipers_simulator_ends_every_game_as_the_real_one():
    game, checked = get_game_type("trick_and_snipers"), 0
    for seed in range(12):
        players = 3 + seed % 3
        table, _ = selfplay.bot_table(game, ["basic"] * players)
        states = []
        for step in selfplay.steps(table, random.Random(seed)):
            if step.table.game.phase == "playing":
                states.append(step.table.game)
        winners = step.table.game.outcome.winners
        for s in states[::4]:
            hands = [tns_shown(list(hand)) for hand in s.hands]
            sim = Sim(players, hands, s.leader, list(s.victory_points), list(s.tricks_won),
                      list(s.trick), s.last_sniper)  # fmt: skip
            assert sim.finish() == winners
            checked += 1
    assert checked > 40


def test_the_st_patrick_simulator_ends_every_round_with_the_real_lives():
    game, checked = get_game_type("st_patrick"), 0
    for seed in range(4):
        players = 3 + seed % 2
        table, _ = selfplay.bot_table(game, ["basic"] * players)
        pending, rng = [], random.Random(seed)
        for step in selfplay.steps(table, rng):
            s = step.table.game
            if s.phase in ("relics", "playing") and rng.random() < 0.2:
                pending.append(s)
            for event in step.events:
                if type(event).__name__ != "RoundScored":
                    continue
                for s in pending:
                    world = Round(
                        players, [stp_shown(list(h)) for h in s.hands], list(s.life),
                        list(s.relics), s.first_lead_snake_allowed, s.phase, s.relics_left,
                        s.relic_turn or 0, s.passes_in_a_row, s.taken_this_phase, s.curses,
                        s.special_hunt, s.leader or 0, list(s.trick), s.tricks_played,
                        list(bites(s)), list(snakes_won(s)),
                    )  # fmt: skip
                    world.finish()
                    assert tuple(world.life) == event.life
                    checked += 1
                pending = []
    assert checked > 40


def test_the_ouroboros_simulator_ends_every_game_as_the_real_one():
    game, checked = get_game_type("ouroboros_trick"), 0
    for seed in range(12):
        players = 3 + seed % 3
        table, _ = selfplay.bot_table(game, ["basic"] * players)
        states = []
        for step in selfplay.steps(table, random.Random(seed)):
            if step.table.game.phase in ("playing", "discarding"):
                states.append(step.table.game)
        winners = step.table.game.outcome.winners
        for s in states[::3]:
            pending = (s.pending.seat, s.pending.count) if s.pending else None
            sim = Game(players, [ouro_shown(list(h)) for h in s.hands],
                       [list(p) for p in s.pools], s.leader, list(s.trick), pending)  # fmt: skip
            assert sim.finish() == winners
            checked += 1
    assert checked > 40


def test_the_trick_and_snipers_simulator_chooses_every_card_as_the_basic_bot():
    checked = 0
    for seed in range(300):
        rng, players = random.Random(seed), 3 + seed % 3
        deck = rng.sample(deck_for(players), len(deck_for(players)))
        size = HAND_SIZES[players]
        hands = [tns_shown(deck[i * size : (i + 1) * size]) for i in range(players)]
        sim = Sim(players, hands, rng.randrange(players), [0] * players, [0] * players, [])
        winners = None
        while winners is None:
            seat, playable = sim.to_play(), sim.playable(sim.to_play())
            basic = choose_play(tuple(sim.trick), playable, len(sim.trick) == players - 1)
            assert sim.basic_choice(seat) == basic
            checked += 1
            # off the basic path now and then, to reach the states basic bots never make
            winners = sim.play(seat, basic if rng.random() < 0.6 else rng.choice(playable))
    assert checked > 5000
