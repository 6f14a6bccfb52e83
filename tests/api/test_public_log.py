"""GET /log/...: the public log of finished games over HTTP, each proof checked with the
independent RFC 9162 verifier (events/audit/log_verify.py) against the signed checkpoint or
the RFC's own MTH of the leaves served, each response held to openapi.yaml, and bad input
answered as a problem, never a 500.

The session's database is shared: other tests' finished games are in the same tree, so
nothing here counts on a size, only on what each checkpoint it read says; the proofs are
checked for the last WINDOW sizes (every size, in a run of this module alone)."""

from __future__ import annotations

import base64
import json
import uuid

import pytest

from events.audit.log_format import Checkpoint, leaf_hash, open_checkpoint
from events.audit.log_verify import verify_consistency, verify_inclusion
from events.audit.signing import public_key_from
from tests.api.play import create_game, humans, play_to_end, tokens_of
from tests.api.test_audit_and_export import stored_game
from tests.api.test_errors import assert_problem
from tests.audit.rfc9162 import mth

IMMUTABLE = "public, max-age=31536000, immutable"
WINDOW = 40  # the sizes, and the indexes, of the tree's end whose every proof is checked


def appended(app) -> None:
    """What the worker's appender does, here and now: every finished game into the log."""
    while app.extensions["cardroom"].public_log.append_pending():
        pass


def finished_game(client, seed: int) -> str:
    game = create_game(client, "trick_and_snipers", humans(3))
    play_to_end(client, game["id"], tokens_of(game), seed=seed)
    return str(game["id"])


def checkpoint(client) -> Checkpoint:
    response = client.get("/log/checkpoint")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    key = public_key_from(client.get("/audit-key").get_data())
    return open_checkpoint(response.get_data(), key, "cardroom.localhost/log")


def b64(text: str) -> bytes:
    return base64.b64decode(text, validate=True)


def inclusion_of(client, game_id: str, size: int | None = None) -> dict:
    query = f"game={game_id}" + ("" if size is None else f"&size={size}")
    response = client.get(f"/log/proof/inclusion?{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def served(client, size: int) -> tuple[list[dict], list[bytes]]:
    """The log's first `size` entries, page after page, and their leaves' bytes."""
    entries: list[dict] = []
    while len(entries) < size:
        page = client.get(f"/log/entries?start={len(entries)}&end={size}")
        entries += page.get_json()["items"]
    return entries, [b64(entry["leaf"]) for entry in entries]


def leaf_at(client, index: int) -> bytes:
    response = client.get(f"/log/entries?start={index}&end={index + 1}")
    assert response.status_code == 200
    (item,) = response.get_json()["items"]
    assert item["index"] == index
    return b64(item["leaf"])


@pytest.fixture(scope="module")
def two_trees(app):
    """Two games played over HTTP, each appended in a batch after others (trees of a dozen
    leaves and more, so that proofs have several levels): (game, checkpoint) each."""
    client = app.test_client()
    for seed in range(11):
        stored_game(app, "trick_and_snipers", seed=seed)
    first = finished_game(client, seed=2)
    appended(app)
    earlier = checkpoint(client)
    for seed in range(11, 17):
        stored_game(app, "trick_and_snipers", seed=seed)
    second = finished_game(client, seed=3)
    appended(app)
    return (first, earlier), (second, checkpoint(client))


def test_a_finished_games_leaf_says_its_final_head_type_and_version(client, two_trees) -> None:
    (game_id, _), _ = two_trees
    proof = inclusion_of(client, game_id)
    leaf = json.loads(leaf_at(client, proof["index"]))
    audit = client.get(f"/games/{game_id}/audit").get_json()
    game = client.get(f"/games/{game_id}").get_json()
    assert leaf == {
        "game_id": game_id,
        "head": audit["chain_head"],
        "type": "trick_and_snipers",
        "version": game["version"],
    }


def test_every_leaf_is_included_in_every_later_tree(client, two_trees) -> None:
    (_, earlier), (_, later) = two_trees
    entries, leaves = served(client, later.size)
    assert [entry["index"] for entry in entries] == list(range(later.size))
    assert later.size > earlier.size >= 12
    for tree in (earlier, later):  # the signed roots are those of the leaves served
        assert mth(leaves[: tree.size]) == tree.root
    for size in range(max(1, later.size - WINDOW), later.size + 1):
        root = mth(leaves[:size])
        for entry in entries[: min(3, size)] + entries[max(3, size - WINDOW) : size]:
            proof = inclusion_of(client, entry["game_id"], size)
            hashes = [b64(h) for h in proof["hashes"]]
            assert (proof["index"], proof["size"]) == (entry["index"], size)
            hashed = leaf_hash(b64(entry["leaf"]))
            assert verify_inclusion(hashed, entry["index"], size, hashes, root)


def test_without_a_size_the_proof_is_for_the_latest_checkpoint(client, two_trees) -> None:
    (first, _), _ = two_trees
    latest = checkpoint(client)
    proof = inclusion_of(client, first)
    hashed = leaf_hash(leaf_at(client, proof["index"]))
    assert proof["size"] == latest.size
    assert verify_inclusion(
        hashed, proof["index"], latest.size, [b64(h) for h in proof["hashes"]], latest.root
    )


def test_every_earlier_tree_is_consistent_with_every_later_one(client, two_trees) -> None:
    _, (_, later) = two_trees
    _, leaves = served(client, later.size)
    for second in range(max(0, later.size - WINDOW), later.size + 1):
        for first in sorted({0, 1, 2, *range(max(0, second - WINDOW), second + 1)}):
            if first > second:
                continue
            response = client.get(f"/log/proof/consistency?from={first}&to={second}")
            assert response.status_code == 200
            hashes = [b64(h) for h in response.get_json()["hashes"]]
            roots = mth(leaves[:first]), mth(leaves[:second])
            assert verify_consistency(first, second, *roots, hashes)


def test_a_proof_for_the_wrong_leaf_index_or_size_fails(client, two_trees) -> None:
    (first, earlier), (second, later) = two_trees
    proof = inclusion_of(client, first, later.size)
    index, hashes = proof["index"], [b64(h) for h in proof["hashes"]]
    other = leaf_hash(leaf_at(client, inclusion_of(client, second)["index"]))
    hashed = leaf_hash(leaf_at(client, index))
    assert verify_inclusion(hashed, index, later.size, hashes, later.root)
    assert not verify_inclusion(other, index, later.size, hashes, later.root)
    assert not verify_inclusion(hashed, index + 1, later.size, hashes, later.root)
    # Another size: a tree of another shape, or another tree (its own root).
    assert not verify_inclusion(hashed, index, later.size * 2, hashes, later.root)
    assert not verify_inclusion(hashed, index, earlier.size, hashes, earlier.root)
    assert not verify_inclusion(hashed, index, later.size, hashes, earlier.root)
    response = client.get(f"/log/proof/consistency?from={earlier.size}&to={later.size}")
    consistency = [b64(h) for h in response.get_json()["hashes"]]
    assert not verify_consistency(
        earlier.size - 1, later.size, earlier.root, later.root, consistency
    )
    assert not verify_consistency(earlier.size, later.size, later.root, later.root, consistency)


def test_a_game_enters_no_tree_older_than_its_leaf(client, two_trees) -> None:
    (_, earlier), (second, _) = two_trees
    response = client.get(f"/log/proof/inclusion?game={second}&size={earlier.size}")
    assert_problem(response, 404, "not-found")


def test_a_game_not_in_the_log_is_not_found(client) -> None:
    unfinished = create_game(client, "trick_and_snipers", humans(3))["id"]
    for game in (unfinished, uuid.uuid4(), "not-a-game"):
        assert_problem(client.get(f"/log/proof/inclusion?game={game}"), 404, "not-found")


def test_sizes_beyond_the_latest_checkpoint_are_not_found(client, two_trees) -> None:
    (first, _), _ = two_trees
    beyond = checkpoint(client).size + 10**6  # whatever a worker appends meanwhile
    for path in (
        f"/log/proof/inclusion?game={first}&size={beyond}",
        f"/log/proof/consistency?from=1&to={beyond}",
        f"/log/entries?start={beyond}&end={beyond + 5}",
    ):
        assert_problem(client.get(path), 404, "not-found")


@pytest.mark.parametrize(
    "path",
    [
        "/log/entries",
        "/log/entries?start=0",
        "/log/entries?start=-1&end=2",
        "/log/entries?start=x&end=2",
        "/log/entries?start=3&end=3",
        "/log/entries?start=0&end=99999999999999999999",
        "/log/proof/inclusion",
        "/log/proof/inclusion?game=",
        "/log/proof/inclusion?game=x&size=-1",
        "/log/proof/inclusion?game=x&size=1.5",
        "/log/proof/consistency?from=1",
        "/log/proof/consistency?from=2&to=1",
        "/log/proof/consistency?from=a&to=b",
    ],
)
def test_bad_input_is_a_validation_problem(client, path: str) -> None:
    assert_problem(client.get(path), 400, "validation-error")


def test_entries_stop_at_the_latest_checkpoint_and_say_their_leaves(client, two_trees) -> None:
    latest = checkpoint(client)
    response = client.get(f"/log/entries?start={latest.size - 1}&end={latest.size + 10}")
    items = response.get_json()["items"]
    assert [item["index"] for item in items] == [latest.size - 1]
    assert response.headers["Cache-Control"] == "public, no-cache"
    leaf = json.loads(b64(items[0]["leaf"]))
    assert leaf["game_id"] == items[0]["game_id"]


def test_what_is_asked_for_fixed_sizes_may_be_cached_forever(client, two_trees) -> None:
    (first, earlier), (_, later) = two_trees
    fixed = [
        f"/log/proof/inclusion?game={first}&size={earlier.size}",
        f"/log/proof/consistency?from={earlier.size}&to={later.size}",
        f"/log/entries?start=0&end={earlier.size}",
    ]
    for path in fixed:
        assert client.get(path).headers["Cache-Control"] == IMMUTABLE
    for path in ("/log/checkpoint", f"/log/proof/inclusion?game={first}"):
        assert client.get(path).headers["Cache-Control"] == "public, no-cache"
