"""Checking the public log's proofs, as RFC 9162 writes the algorithms, step for step.

- `verify_inclusion`: §2.1.3.2, "Verifying an Inclusion Proof".
- `verify_consistency`: §2.1.4.2, "Verifying Consistency between Two Tree Heads", with the
  cases the RFC leaves to the caller: two equal sizes (an empty proof, equal roots) and an
  empty first tree (an empty proof, the empty tree's root).

Written from the RFC alone, never from the code that makes the proofs, so that a mistake there
is not repeated here. Anything malformed (a hash that is not 32 bytes, a negative index, a
proof too long or too short) is a proof that does not hold: these functions never raise.
"""

from __future__ import annotations

from events.audit.log_format import EMPTY_ROOT, node_hash

HASH_SIZE = 32


def verify_inclusion(
    leaf_hash: bytes, index: int, size: int, hashes: list[bytes], root: bytes
) -> bool:
    """Whether `hashes` prove that the leaf hash `leaf_hash` is leaf `index` of the tree of
    `size` leaves whose root is `root`."""
    if not _well_formed([leaf_hash, root, *hashes]) or not _counts(index, size):
        return False
    if not 0 <= index < size:
        return False  # step 1: the index must be within the tree
    fn, sn = index, size - 1  # step 2
    r = leaf_hash  # step 3
    for p in hashes:  # step 4
        if sn == 0:
            return False  # 4a: more hashes than the path has levels
        if fn & 1 or fn == sn:  # 4b: p is a left sibling, or r the last node of its level
            r = node_hash(p, r)
            if not fn & 1:
                fn, sn = _shift_while_even(fn, sn)
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1  # 4c
    return sn == 0 and r == root  # step 5: as many hashes as levels, and the root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, hashes: list[bytes]
) -> bool:
    """Whether `hashes` prove that the tree of `first` leaves with root `first_root` is a
    prefix of the tree of `second` leaves with root `second_root`."""
    if not _well_formed([first_root, second_root, *hashes]) or not _counts(first, second):
        return False
    if not 0 <= first <= second:
        return False
    if first == second:  # the proof of a tree with itself is empty (§2.1.4.1)
        return not hashes and first_root == second_root
    if first == 0:  # the empty tree is a prefix of every tree; its proof is empty
        return not hashes and first_root == EMPTY_ROOT
    if not hashes:
        return False  # step 1
    path = [first_root, *hashes] if _is_power_of_two(first) else list(hashes)  # step 2
    fn, sn = first - 1, second - 1  # step 3
    fn, sn = _shift_while_odd(fn, sn)  # step 4
    fr = sr = path[0]  # step 5
    for c in path[1:]:  # step 6
        if sn == 0:
            return False  # 6a: more hashes than the trees have levels
        if fn & 1 or fn == sn:  # 6b: c is in both trees, to the left
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                fn, sn = _shift_while_even(fn, sn)
        else:  # c is in the second tree only, to the right
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1  # 6c
    return fr == first_root and sr == second_root and sn == 0  # step 7


def _shift_while_even(fn: int, sn: int) -> tuple[int, int]:
    """Right-shift both until LSB(fn) is set or fn is 0 (steps 4b.ii and 6b.iii)."""
    while fn and not fn & 1:
        fn, sn = fn >> 1, sn >> 1
    return fn, sn


def _shift_while_odd(fn: int, sn: int) -> tuple[int, int]:
    """Right-shift both until LSB(fn) is not set (step 4 of §2.1.4.2)."""
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    return fn, sn


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _well_formed(hashes: list[bytes]) -> bool:
    return all(isinstance(h, bytes) and len(h) == HASH_SIZE for h in hashes)


def _counts(*numbers: int) -> bool:
    return all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
