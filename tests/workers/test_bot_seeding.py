"""A bot's generator is seeded by an HMAC over its turn under the service's secret: the operator
reproduces a choice, a player (who knows the game, version and seat) cannot predict it."""

from __future__ import annotations

import random
import uuid

from events.automation import Automation, bot_rng, bot_seed
from events.committing import Committer
from events.memory import MemoryStore

GAME = uuid.UUID("00000000-0000-4000-8000-000000000001")


def test_the_same_turn_under_the_same_secret_gets_the_same_seed():
    assert bot_seed(b"k" * 32, GAME, 7, 2) == bot_seed(b"k" * 32, GAME, 7, 2)
    first, again = bot_rng(b"k" * 32, GAME, 7, 2), bot_rng(b"k" * 32, GAME, 7, 2)
    assert [first.random() for _ in range(3)] == [again.random() for _ in range(3)]


def test_another_secret_or_another_turn_gets_another_seed():
    seeds = {
        bot_seed(b"k" * 32, GAME, 7, 2),
        bot_seed(b"K" * 32, GAME, 7, 2),
        bot_seed(b"k" * 32, GAME, 8, 2),
        bot_seed(b"k" * 32, GAME, 7, 3),
        bot_seed(b"k" * 32, uuid.uuid4(), 7, 2),
    }
    assert len(seeds) == 5


def test_the_seed_is_not_the_old_public_one():
    public = random.Random(f"{GAME}:7:2").random()
    assert bot_rng(b"k" * 32, GAME, 7, 2).random() != public


def test_an_automation_without_a_secret_makes_one_of_its_own():
    store = MemoryStore()
    one = Automation(store.unit_of_work, Committer(deal_rng=random_source()))
    two = Automation(store.unit_of_work, Committer(deal_rng=random_source()))
    assert one.turn_rng(GAME, 1, 0).random() != two.turn_rng(GAME, 1, 0).random()
    keyed = Automation(store.unit_of_work, Committer(deal_rng=random_source()), b"s" * 32)
    assert keyed.turn_rng(GAME, 1, 0).random() == bot_rng(b"s" * 32, GAME, 1, 0).random()


def random_source() -> random.Random:
    return random.Random(0)
