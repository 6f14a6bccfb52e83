"""docs/audit/deal-vectors.json: every deal vector is what the project derives, for every deck size
the four games deal, and the verifier written from docs/audit.md alone derives every one of them
too, draws thrown away included."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

from domain.games import GAME_TYPES
from domain.kit.cards import Card
from domain.shared.deal_derivation import DealStream, deal_context, derive_deal
from domain.shared.seeds import seed_commitment
from tests.audit import independent_verifier

DOCS = Path(__file__).resolve().parents[2] / "docs" / "audit"
VECTORS = json.loads((DOCS / "deal-vectors.json").read_text("utf-8"))
DEALS = [*VECTORS["deals"], VECTORS["example"]]


def named(vector: dict) -> str:
    return f"{vector['game_type']}-{vector['players']}"


def test_there_is_a_vector_for_every_game_type_and_table_size():
    sizes = {(v["game_type"], v["players"]) for v in VECTORS["deals"]}
    offered = {
        (game_id, players)
        for game_id, game in GAME_TYPES.items()
        for players in range(game.min_players, game.max_players + 1)
    }
    assert sizes == offered
    assert {v["deck_size"] for v in DEALS} == {36, 40, 48, 52, 60}


@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_each_deal_vector_is_the_projects_derivation(vector):
    cards = [Card.from_json(card) for card in vector["sorted_cards"]]
    derived = derive_deal(
        vector["server_seed"], vector["client_seeds"], vector["game_id"], vector["round"], cards
    )
    assert [card.to_json() for card in derived.deck] == vector["deck"]
    assert [cards[i] for i in vector["permutation"]] == list(derived.deck)
    assert (derived.first_leader, derived.salt) == (vector["first_leader"], vector["salt"])
    assert seed_commitment(vector["server_seed"]) == vector["commitment"]


@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_each_vector_spells_its_context_and_first_block(vector):
    context = deal_context(vector["client_seeds"], vector["game_id"], vector["round"])
    assert context == vector["context_utf8"].encode("utf-8") == bytes.fromhex(vector["context_hex"])
    key = bytes.fromhex(vector["server_seed"])
    block = hmac.new(key, context + (0).to_bytes(4, "big"), hashlib.sha256).hexdigest()
    assert block == vector["block_0_hex"] == DealStream(key, context).read(32).hex()


@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_each_vectors_first_draws_are_words_of_its_stream(vector):
    stream = DealStream(bytes.fromhex(vector["server_seed"]), bytes.fromhex(vector["context_hex"]))
    for step in vector["first_draws"]:
        assert [int.from_bytes(stream.read(4), "big") for _ in step["words"]] == step["words"]
        assert step["j"] == step["words"][-1] % step["n"]
    assert vector["first_draws"][0]["words"][0] == int(vector["block_0_hex"][:8], 16)


def test_the_example_vector_is_the_deal_of_the_fair_example_export():
    lines = [json.loads(line) for line in (DOCS / "example-fair.ndjson").read_text().splitlines()]
    sealed = next(line for line in lines if line.get("type") == "DeckSealed")["data"]
    revealed = next(line for line in lines if line.get("type") == "ServerSeedSealed")["data"]
    example = VECTORS["example"]
    assert (sealed["deck"], sealed["salt"]) == (example["deck"], example["salt"])
    assert revealed["seed"] == example["server_seed"]
    assert lines[0]["game_id"] == example["game_id"]


@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_the_docs_only_verifier_derives_every_deal_vector(vector):
    deck, leader, salt = independent_verifier.derive(
        vector["server_seed"],
        vector["client_seeds"],
        vector["game_id"],
        vector["round"],
        list(reversed(vector["sorted_cards"])),  # any order in: the cards are sorted first
    )
    assert (deck, leader, salt) == (vector["deck"], vector["first_leader"], vector["salt"])
    assert independent_verifier.sha256_hex_bytes(vector["server_seed"]) == vector["commitment"]


def test_the_draws_vector_throws_away_the_words_of_the_last_incomplete_group():
    draws = VECTORS["draws"]
    key, context = bytes.fromhex(draws["server_seed"]), bytes.fromhex(draws["context_hex"])
    ours, theirs = DealStream(key, context), independent_verifier.Stream(key, context)
    assert [ours.draw(draws["n"]) for _ in draws["results"]] == draws["results"]
    assert [theirs.draw(draws["n"]) for _ in draws["results"]] == draws["results"]
    assert any(draws["thrown_away"]) and not all(draws["thrown_away"])
    limit = 2**32 - 2**32 % draws["n"]
    assert draws["thrown_away"] == [word >= limit for word in draws["words"]]
