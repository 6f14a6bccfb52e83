"""A deal derived from seeds, byte for byte as docs/audit.md specifies it (section 7), so that
anyone can derive it again: nothing here draws randomness, the seeds are handed in.

    context   = UTF-8 of the canonical JSON of
                {"client_seeds", "game_id", "purpose": "cardroom-deal", "round"}
    block(i)  = HMAC-SHA256(key = the server seed's 32 bytes, context || i as 4 bytes, big-endian)
    stream    = block(0) || block(1) || ...
    draw(n)   = the next 4 stream bytes as a big-endian x; again while x >= 2**32 - 2**32 % n;
                then x % n (rejection sampling: every result equally likely)
    deck      = Fisher-Yates on the cards sorted by (suit, rank): for i = n-1 .. 1, swap
                cards[i] with cards[draw(i + 1)]
    leader    = draw(seats), then salt = the next 16 stream bytes as 32 hex digits
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from domain.kit.cards import Card
from domain.kit.codec import canonical_json

PURPOSE = "cardroom-deal"
WORD = 4  # bytes per draw
SPAN = 2**32  # the values of one draw's word
SALT_BYTES = 16
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DerivedDeal:
    """A deal's deck (top first), its random first leader and the salt of its commitment."""

    deck: tuple[Card, ...]
    first_leader: int
    salt: str


def deal_context(client_seeds: Sequence[str | None], game_id: str, round_number: int) -> bytes:
    """What each block authenticates besides its counter: every seat's seed (None for a bot),
    the game and the deal's round, so no two deals of any games share a stream."""
    fields = {
        "client_seeds": list(client_seeds),
        "game_id": game_id,
        "purpose": PURPOSE,
        "round": round_number,
    }
    return canonical_json(fields).encode("utf-8")


class DealStream:
    """HMAC-SHA256 in counter mode: the deal's bytes, read in order."""

    def __init__(self, server_seed: bytes, context: bytes) -> None:
        self._keyed = hmac.new(server_seed, context, hashlib.sha256)
        self._blocks = self._generate()
        self._buffer = b""

    def _generate(self) -> Iterator[bytes]:
        counter = 0
        while True:
            block = self._keyed.copy()  # the key and the context are hashed once
            block.update(counter.to_bytes(4, "big"))
            yield block.digest()
            counter += 1

    def read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += next(self._blocks)
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def draw(self, n: int) -> int:
        """Uniform in [0, n): words in the incomplete last group of n values are thrown away,
        so that no result is likelier than another (no modulo bias)."""
        if not 1 <= n <= SPAN:
            raise ValueError(f"a draw is from 1 to 2**32 values, not {n}")
        limit = SPAN - SPAN % n
        while True:
            word = int.from_bytes(self.read(WORD), "big")
            if word < limit:
                return word % n


def shuffled(items: Sequence[T], stream: DealStream) -> tuple[T, ...]:
    """Fisher-Yates (Durstenfeld), from the last place down to the second."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = stream.draw(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def derive_deal(
    server_seed: str,
    client_seeds: Sequence[str | None],
    game_id: str,
    round_number: int,
    cards: Sequence[Card],
) -> DerivedDeal:
    """The deal of `cards` (in any order: they are sorted first) among len(client_seeds)
    seats; `server_seed` is 64 hex digits."""
    context = deal_context(client_seeds, game_id, round_number)
    stream = DealStream(bytes.fromhex(server_seed), context)
    deck = shuffled(sorted(cards), stream)
    leader = stream.draw(len(client_seeds))
    return DerivedDeal(deck, leader, stream.read(SALT_BYTES).hex())
