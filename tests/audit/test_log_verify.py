"""events/audit/log_verify.py holds RFC 9162's proofs to the RFC's own definitions.

The tree and the proofs are the RFC's recursive definitions (§2.1.1 MTH, §2.1.3.1 PATH,
§2.1.4.1 PROOF and SUBPROOF) written out naively (tests/audit/naive_tree.py), nothing shared
with the log's writer: every leaf is included in every later tree, every tree is consistent
with every later one, and a proof of anything else, or a proof altered in any way, fails.
"""

from __future__ import annotations

import pytest

from events.audit.log_format import EMPTY_ROOT
from events.audit.log_verify import verify_consistency, verify_inclusion
from tests.audit.naive_tree import NaiveTree, largest_power_of_two_below, sha256

MAX_SIZE = 70
TREE = NaiveTree([f"leaf {i}".encode() for i in range(MAX_SIZE)])
root, leaf = TREE.root, TREE.leaf_hash
inclusion_proof, consistency_proof = TREE.inclusion, TREE.consistency


def flipped(value: bytes) -> bytes:
    return bytes([value[0] ^ 1]) + value[1:]


def altered_proofs(proof: list[bytes]) -> list[list[bytes]]:
    """Every hash tampered with, in turn; the proof truncated at either end, extended at
    either end, and two neighbours swapped."""
    altered = [proof[:i] + [flipped(h)] + proof[i + 1 :] for i, h in enumerate(proof)]
    if proof:
        altered += [proof[1:], proof[:-1], proof + proof[-1:]]
    altered += [proof + [sha256(b"extra")], [sha256(b"extra")] + proof]
    altered += [
        proof[:i] + [proof[i + 1], proof[i]] + proof[i + 2 :]
        for i in range(len(proof) - 1)
        if proof[i] != proof[i + 1]
    ]
    return altered


# Certificate Transparency's reference tree (RFC 6962's implementations share it): eight leaves
# and the root of each size. The naive tree above must agree with it before it judges anything.
CT_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657"]
CT_LEAVES += ["606162636465666768696a6b6c6d6e6f"]
CT_ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def test_the_naive_tree_gives_the_reference_roots_of_certificate_transparency():
    def reference_mth(leaves: list[bytes]) -> bytes:
        if not leaves:
            return sha256(b"")
        if len(leaves) == 1:
            return sha256(b"\x00" + leaves[0])
        k = largest_power_of_two_below(len(leaves))
        return sha256(b"\x01" + reference_mth(leaves[:k]) + reference_mth(leaves[k:]))

    leaves = [bytes.fromhex(text) for text in CT_LEAVES]
    assert [reference_mth(leaves[:n]).hex() for n in range(9)] == CT_ROOTS
    assert root(0) == EMPTY_ROOT


def test_every_leaf_is_included_in_every_later_tree():
    for size in range(1, MAX_SIZE + 1):
        for index in range(size):
            proof = inclusion_proof(index, size)
            assert verify_inclusion(leaf(index), index, size, proof, root(size)), (index, size)


def test_every_earlier_tree_is_consistent_with_every_later_one():
    for second in range(MAX_SIZE + 1):
        for first in range(second + 1):
            proof = consistency_proof(first, second)
            holds = verify_consistency(first, second, root(first), root(second), proof)
            assert holds, (first, second)


def test_an_inclusion_proof_for_another_leaf_fails():
    for size in range(2, 34):
        for index in range(size):
            proof = inclusion_proof(index, size)
            other = leaf((index + 1) % size)
            assert not verify_inclusion(other, index, size, proof, root(size)), (index, size)
            assert not verify_inclusion(flipped(leaf(index)), index, size, proof, root(size))


def test_an_inclusion_proof_at_another_index_fails():
    for size in range(2, 34):
        for index in range(size):
            proof = inclusion_proof(index, size)
            for other in range(-1, size + 1):
                if other != index:
                    holds = verify_inclusion(leaf(index), other, size, proof, root(size))
                    assert not holds, (index, other, size)


def test_an_inclusion_proof_for_another_tree_size_fails():
    """Against that size's own root: a size is bound to its root by the checkpoint's
    signature, and a path of the same shape may well fit a wrong size with the right root."""
    for size in range(1, 34):
        for index in range(size):
            proof = inclusion_proof(index, size)
            for other in range(size + 3):
                if other != size:
                    holds = verify_inclusion(leaf(index), index, other, proof, root(other))
                    assert not holds, (index, size, other)


def test_an_inclusion_proof_against_another_root_fails():
    for size in range(1, 34):
        for index in range(size):
            proof = inclusion_proof(index, size)
            assert not verify_inclusion(leaf(index), index, size, proof, flipped(root(size)))
            assert not verify_inclusion(leaf(index), index, size, proof, root(size - 1))


def test_a_tampered_truncated_or_extended_inclusion_proof_fails():
    for size in range(1, 34):
        for index in range(size):
            for proof in altered_proofs(inclusion_proof(index, size)):
                holds = verify_inclusion(leaf(index), index, size, proof, root(size))
                assert not holds, (index, size, len(proof))


def test_a_consistency_proof_between_other_sizes_fails():
    """Each size with its own root, as checkpoints give them."""
    for second in range(1, 34):
        for first in range(1, second):
            proof = consistency_proof(first, second)
            for other in range(first):
                assert not verify_consistency(other, second, root(other), root(second), proof)
            for other in range(first, second + 3):
                if other != second:
                    holds = verify_consistency(first, other, root(first), root(other), proof)
                    assert not holds, (first, second, other)


def test_a_consistency_proof_against_another_root_fails():
    """From a first tree of one leaf or more: the empty tree is a prefix of any tree."""
    for second in range(1, 34):
        for first in range(1, second + 1):
            proof = consistency_proof(first, second)
            first_root, second_root = root(first), root(second)
            assert not verify_consistency(first, second, flipped(first_root), second_root, proof)
            assert not verify_consistency(first, second, first_root, flipped(second_root), proof)


def test_a_tampered_truncated_or_extended_consistency_proof_fails():
    for second in range(1, 34):
        for first in range(second + 1):
            for proof in altered_proofs(consistency_proof(first, second)):
                holds = verify_consistency(first, second, root(first), root(second), proof)
                assert not holds, (first, second, len(proof))


def test_a_tree_is_consistent_with_itself_by_an_empty_proof_and_equal_roots_only():
    for size in range(MAX_SIZE + 1):
        assert verify_consistency(size, size, root(size), root(size), [])
        assert not verify_consistency(size, size, root(size), root(size), [root(size)])
        assert not verify_consistency(size, size, root(size), flipped(root(size)), [])


def test_the_empty_tree_is_consistent_with_every_tree_by_an_empty_proof_only():
    for size in range(1, MAX_SIZE + 1):
        assert verify_consistency(0, size, EMPTY_ROOT, root(size), [])
        assert not verify_consistency(0, size, EMPTY_ROOT, root(size), [root(size)])
        assert not verify_consistency(0, size, flipped(EMPTY_ROOT), root(size), [])


def test_a_later_tree_is_never_consistent_with_an_earlier_one():
    for second in range(1, 34):
        for first in range(second):
            proof = consistency_proof(first, second)
            assert not verify_consistency(second, first, root(second), root(first), proof)


def test_an_empty_tree_includes_no_leaf():
    assert not verify_inclusion(leaf(0), 0, 0, [], EMPTY_ROOT)


@pytest.mark.parametrize(
    "bad",
    [b"", b"\x00" * 31, b"\x00" * 33, "00" * 32, None, 7],
    ids=["empty", "31 bytes", "33 bytes", "hex text", "None", "a number"],
)
def test_a_hash_that_is_not_32_bytes_makes_any_proof_fail_without_raising(bad):
    proof = inclusion_proof(2, 5)
    assert not verify_inclusion(bad, 2, 5, proof, root(5))
    assert not verify_inclusion(leaf(2), 2, 5, proof, bad)
    assert not verify_inclusion(leaf(2), 2, 5, [*proof[:-1], bad], root(5))
    consistency = consistency_proof(3, 7)
    assert not verify_consistency(3, 7, bad, root(7), consistency)
    assert not verify_consistency(3, 7, root(3), bad, consistency)
    assert not verify_consistency(3, 7, root(3), root(7), [*consistency[:-1], bad])


@pytest.mark.parametrize("bad", [-1, True, 2.0, "2", None])
def test_an_index_or_size_that_is_not_a_count_makes_any_proof_fail_without_raising(bad):
    assert not verify_inclusion(leaf(2), bad, 5, inclusion_proof(2, 5), root(5))
    assert not verify_inclusion(leaf(0), 0, bad, inclusion_proof(0, 1), root(1))
    assert not verify_consistency(bad, 7, root(3), root(7), consistency_proof(3, 7))
    assert not verify_consistency(3, bad, root(3), root(7), consistency_proof(3, 7))
