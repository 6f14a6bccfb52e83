"""docs/audit/deal-vectors.json: seeds in, deal out, for every game type and table size (every
deck size the four games deal), as docs/audit.md section 7 derives it; and a run of draws that
throws words away, which no deal of these sizes is likely to show. Each value is computed by the
project's code and cross-checked here against the spelled-out rule."""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from typing import Any

from domain.games import GAME_TYPES
from domain.kit.codec import canonical_json
from domain.shared.deal_derivation import DealStream, deal_context, derive_deal
from domain.shared.seeds import seed_commitment
from tests.audit.vector_parts import text_and_hex

# Client seeds that show the rules: any printable ASCII (quotes and backslashes are escaped in
# the context's canonical JSON), a seed the server drew (32 hex digits), none for a bot.
SEEDS = ('say "hi" \\ back', "0123456789abcdef0123456789abcdef", None, "~ tilde & space ~", "x")
DRAWN_N = 2**31 + 1  # about every other word thrown away


def server_seed(label: str) -> str:
    return hashlib.sha256(f"cardroom deal vector {label}".encode()).hexdigest()


def deal_vector(game_type_id: str, players: int, round_number: int) -> dict[str, Any]:
    """A vector for this game and table size, its seeds made up."""
    seed = server_seed(f"{game_type_id}/{players}")
    game_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"cardroom:vector:{game_type_id}:{players}"))
    return vector_of(game_type_id, players, seed, list(SEEDS[:players]), game_id, round_number)


def example_vector(fair_export: str) -> dict[str, Any]:
    """The deal of docs/audit/example-fair.ndjson, from the seeds its log holds."""
    header, *events = [json.loads(line) for line in fair_export.splitlines()]
    seeds = [None if e is None else e["seed"] for e in events[0]["data"]["seeding"]["client_seeds"]]
    joined = [e["data"] for e in events if e["type"] == "SeatJoined"]
    for data in joined:
        seeds[data["seat"]] = data["client_seed"]["seed"]
    sealed = next(e for e in events if e["type"] == "ServerSeedSealed")["data"]["seed"]
    players = len(header["seats"])
    vector = vector_of(header["type"], players, sealed, seeds, header["game_id"], 1)
    deck = next(e for e in events if e["type"] == "DeckSealed")["data"]["deck"]
    assert vector["deck"] == deck
    return {"description": "the deal of example-fair.ndjson", **vector}


def vector_of(
    game_type_id: str,
    players: int,
    seed: str,
    client_seeds: list[str | None],
    game_id: str,
    round_number: int,
) -> dict[str, Any]:
    game_type = GAME_TYPES[game_type_id]
    cards = game_type.cards_to_deal(game_type.new_game(players, dict(game_type.options))) or ()
    derived = derive_deal(seed, client_seeds, game_id, round_number, cards)
    context = deal_context(client_seeds, game_id, round_number)
    ordered = sorted(cards)
    spelled = {"client_seeds": client_seeds, "game_id": game_id, "purpose": "cardroom-deal"}
    assert context == canonical_json(spelled | {"round": round_number}).encode("utf-8")
    first_block = hmac.new(bytes.fromhex(seed), context + bytes(4), hashlib.sha256).digest()
    return {
        "game_type": game_type_id,
        "players": players,
        "deck_size": len(cards),
        "server_seed": seed,
        "commitment": seed_commitment(seed),
        "game_id": game_id,
        "round": round_number,
        "client_seeds": client_seeds,
        **text_and_hex("context", context),
        "block_0_hex": first_block.hex(),
        "first_draws": first_draws(seed, context, len(cards)),
        "sorted_cards": [card.to_json() for card in ordered],
        "permutation": [ordered.index(card) for card in derived.deck],
        "deck": [card.to_json() for card in derived.deck],
        "first_leader": derived.first_leader,
        "salt": derived.salt,
    }


def first_draws(seed: str, context: bytes, size: int) -> list[dict[str, Any]]:
    """The first three steps of the shuffle, spelled out: the words read (more than one if
    any was thrown away), and the place swapped with place `n - 1`."""
    stream, steps = DealStream(bytes.fromhex(seed), context), []
    for n in range(size, size - 3, -1):
        words = [int.from_bytes(stream.read(4), "big")]
        while words[-1] >= 2**32 - 2**32 % n:
            words.append(int.from_bytes(stream.read(4), "big"))
        steps.append({"n": n, "words": words, "j": words[-1] % n})
    return steps


def draws_vector() -> dict[str, Any]:
    """Draws from [0, 2**31 + 1): a word of 2**31 + 1 or more is thrown away."""
    seed, game_id = server_seed("draws"), "c0ffee00-0000-4000-8000-000000000002"
    context = deal_context(["draws"], game_id, 1)
    key = bytes.fromhex(seed)
    stream, words = DealStream(key, context), DealStream(key, context)
    results = [stream.draw(DRAWN_N) for _ in range(8)]
    read: list[int] = []
    while len([w for w in read if w < DRAWN_N]) < len(results):
        read.append(int.from_bytes(words.read(4), "big"))
    assert [w % DRAWN_N for w in read if w < DRAWN_N] == results
    return {
        "description": "8 draws from [0, n) with n = 2**31 + 1, from the stream of this key"
        " and context: each 4-byte word w, big-endian, is thrown away when w >= 2**32 -"
        " 2**32 % n (here 2**31 + 1), else the draw is w % n",
        "server_seed": seed,
        **text_and_hex("context", context),
        "n": DRAWN_N,
        "words": read,
        "thrown_away": [w >= DRAWN_N for w in read],
        "results": results,
    }


def deal_vectors(fair_export: str) -> dict[str, Any]:
    vectors = [
        deal_vector(game_id, players, round_number=2 if game_id == "st_patrick" else 1)
        for game_id, game_type in sorted(GAME_TYPES.items())
        for players in range(game_type.min_players, game_type.max_players + 1)
    ]
    return {
        "about": "Test vectors of docs/audit.md section 7, written by tests/audit/make_vectors.py:"
        " for every game type and table size, the seeds in and the deal out. `permutation[p]`"
        " is the index in `sorted_cards` of the card dealt at place p (place 0 is the top:"
        " seat 0's first card); `deck` spells the same cards out.",
        "deals": vectors,
        "example": example_vector(fair_export),
        "draws": draws_vector(),
    }


def compact(value: Any, indent: int = 0) -> str:
    """JSON with one line per key of the outer objects and every list on one line: readable,
    and a deck per line rather than a card per three lines."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and indent < 3:
        items = [f"{pad}{json.dumps(k)}: {compact(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and value and isinstance(value[0], dict) and indent < 2:
        items = [pad + compact(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
