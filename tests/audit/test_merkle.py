"""events/audit/merkle.py against RFC 9162's own recursive definitions (tests/audit/rfc9162.py:
§2.1.1 MTH, §2.1.3.1 PATH, §2.1.4.1 PROOF/SUBPROOF), for every size up to 70."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping

import pytest

from events.audit import merkle
from tests.audit.rfc9162 import mth, path, proof

SIZES = range(0, 71)


def leaf(i: int) -> bytes:
    return f"leaf {i}".encode()


class Stored:
    """The subtrees as the store keeps them, built by appending one batch after another."""

    def __init__(self) -> None:
        self.hashes: dict[merkle.Key, bytes] = {}
        self.size = 0
        self.reads: list[int] = []  # keys asked for, per read

    def append(self, leaves: list[bytes]) -> None:
        frontier = [self.hashes[key] for key in merkle.frontier_keys(self.size)]
        hashed = [hashlib.sha256(b"\x00" + data).digest() for data in leaves]
        made = merkle.appended_subtrees(self.size, frontier, hashed)
        assert not made.keys() & self.hashes.keys(), "an append rewrote a stored subtree"
        self.hashes |= made
        self.size += len(leaves)

    def read(self, keys: Collection[merkle.Key]) -> Mapping[merkle.Key, bytes]:
        self.reads.append(len(keys))
        return {key: self.hashes[key] for key in keys}


@pytest.fixture(scope="module")
def stored() -> Stored:
    tree = Stored()
    batch = 1
    while tree.size < max(SIZES):
        count = min(batch, max(SIZES) - tree.size)
        tree.append([leaf(i) for i in range(tree.size, tree.size + count)])
        batch = batch % 5 + 1  # batches of 1 to 5 leaves
    return tree


LEAVES = [leaf(i) for i in range(max(SIZES))]


@pytest.mark.parametrize("size", SIZES)
def test_the_root_of_every_size_is_the_rfc_mth(stored: Stored, size: int) -> None:
    assert merkle.root(size, stored) == mth(LEAVES[:size])


def test_an_append_stores_every_perfect_subtree_once_and_nothing_else(stored: Stored) -> None:
    n = len(LEAVES)
    expected = {(level, i) for level in range(7) for i in range(n >> level)}
    assert stored.hashes.keys() == expected
    for level, index in expected:
        span = LEAVES[index << level : (index + 1) << level]
        assert stored.hashes[(level, index)] == mth(span)


@pytest.mark.parametrize("size", SIZES)
def test_every_leaf_has_the_rfc_inclusion_path_in_every_tree_that_holds_it(
    stored: Stored, size: int
) -> None:
    for index in range(size):
        assert merkle.inclusion_proof(index, size, stored) == path(index, LEAVES[:size])


@pytest.mark.parametrize("second", SIZES)
def test_every_earlier_tree_has_the_rfc_consistency_proof_with_every_later_one(
    stored: Stored, second: int
) -> None:
    for first in range(1, second + 1):
        assert merkle.consistency_proof(first, second, stored) == proof(first, LEAVES[:second])


def test_the_empty_tree_and_a_tree_itself_need_no_consistency_proof(stored: Stored) -> None:
    assert merkle.consistency_proof(0, 9, stored) == []
    assert merkle.consistency_proof(9, 9, stored) == []


@pytest.mark.parametrize(("index", "size"), [(-1, 3), (3, 3), (0, 0)])
def test_no_inclusion_proof_is_made_for_a_leaf_outside_the_tree(index: int, size: int) -> None:
    with pytest.raises(ValueError):
        merkle.inclusion_ranges(index, size)


@pytest.mark.parametrize(("first", "second"), [(-1, 3), (4, 3)])
def test_no_consistency_proof_is_made_from_a_larger_or_negative_size(
    first: int, second: int
) -> None:
    with pytest.raises(ValueError):
        merkle.consistency_ranges(first, second)


def test_proofs_and_roots_read_logarithmically_many_subtrees_in_one_read() -> None:
    size = 2**40 + 2**20 + 12345  # never built: only the keys are counted
    bound = 2 * 41
    assert len(merkle.frontier_keys(size)) <= 41
    for index in (0, 1, 2**39, 2**40 + 7, size - 1):
        ranges = merkle.inclusion_ranges(index, size)
        assert sum(len(merkle.range_keys(*r)) for r in ranges) <= bound
    for first in (1, 3, 2**20, 2**40, 2**40 + 99, size - 1):
        ranges = merkle.consistency_ranges(first, size)
        assert sum(len(merkle.range_keys(*r)) for r in ranges) <= bound


def test_one_read_answers_a_proof(stored: Stored) -> None:
    stored.reads.clear()
    merkle.inclusion_proof(17, 70, stored)
    merkle.consistency_proof(13, 70, stored)
    assert len(stored.reads) == 2
