"""A creation's Idempotency-Key must look drawn by a generator: keys made by hand are refused,
and a generator's keys pass (their rare refusals measured on many seeded draws)."""

from __future__ import annotations

import base64
import random
import uuid

import pytest

from api.http.key_randomness import estimated_bits, is_random_enough

MADE_BY_HAND = [
    "aaaaaaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "00000000-0000-0000-0000-000000000000",
    "00000000-0000-4000-8000-000000000000",
    "user-12345-create-game",
    "createGameRequestNumber12345",
    "create-game-1733200000123",
    "0123456789abcdef0123456789abcdef",
    "11111111111111111111111111111111",
    "12345678901234567890123456",
    "create-1",
    "9f1c2e4a-create-1",
]
DRAWS = 20_000


@pytest.mark.parametrize("key", MADE_BY_HAND)
def test_a_key_made_by_hand_is_not_random_enough(key):
    assert not is_random_enough(key)


def _uuid4(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _base64url(rng: random.Random, size: int) -> str:
    return base64.urlsafe_b64encode(rng.randbytes(size)).rstrip(b"=").decode()


GENERATORS = {
    "uuid4": _uuid4,
    "UUID4 in capitals": lambda rng: _uuid4(rng).upper(),
    "22 base64url characters": lambda rng: _base64url(rng, 16),
    "43 base64url characters": lambda rng: _base64url(rng, 32),
    "32 hex digits": lambda rng: rng.randbytes(16).hex(),
}


@pytest.mark.parametrize("draw", GENERATORS.values(), ids=GENERATORS.keys())
def test_a_generators_keys_are_random_enough(draw):
    rng = random.Random(2026)
    refused = [key for key in (draw(rng) for _ in range(DRAWS)) if not is_random_enough(key)]
    assert refused == []


def test_a_random_key_scores_far_above_a_key_made_of_words():
    rng = random.Random(7)
    random_scores = sorted(estimated_bits(_base64url(rng, 16)) for _ in range(1000))
    assert random_scores[500] > 100 > estimated_bits("user-12345-create-game") + 30
