"""RFC 9162 tree math over stored perfect subtrees, so that an append and each proof read
O(log n) hashes.

Every complete perfect subtree of the log is kept, named by its key (level, index): it covers
the leaves [index * 2**level, (index + 1) * 2**level), level 0 being the leaf hashes. Any
range the RFC's recursion meets is a run of such subtrees (`range_keys`), and its hash
(MTH, §2.1.1) is theirs folded from the right. An append needs only the subtrees of the old
size's binary decomposition (`frontier_keys`): each new leaf completes at most one subtree per
level, always with one of those on its left.

Pure: the hashes come from a `SubtreeReader`, which the store answers in one round trip per
call.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

from events.audit.log_format import EMPTY_ROOT, node_hash

Key = tuple[int, int]  # (level, index) of a perfect subtree
Range = tuple[int, int]  # [start, end) of leaf indexes


class SubtreeReader(Protocol):
    def read(self, keys: Collection[Key]) -> Mapping[Key, bytes]:
        """The stored hash of each key (all of them: every key asked for is a stored one)."""
        ...


def range_keys(start: int, end: int) -> list[Key]:
    """The perfect subtrees, left to right, that make up [start, end): the largest aligned one
    at each step, which is where RFC 9162 splits any range its recursion meets."""
    keys: list[Key] = []
    while start < end:
        level = (start & -start).bit_length() - 1 if start else (end - start).bit_length()
        while (1 << level) > end - start:
            level -= 1
        keys.append((level, start >> level))
        start += 1 << level
    return keys


def frontier_keys(size: int) -> list[Key]:
    """The subtrees of size's binary decomposition: the tree of that size, left to right."""
    return range_keys(0, size)


def fold(hashes: Sequence[bytes]) -> bytes:
    """MTH of a range from its perfect subtrees, left to right: each joins what follows it."""
    if not hashes:
        return EMPTY_ROOT
    folded = hashes[-1]
    for left in reversed(hashes[:-1]):
        folded = node_hash(left, folded)
    return folded


def _largest_power_below(n: int) -> int:
    """k of RFC 9162 §2.1.1: the largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def inclusion_ranges(index: int, size: int) -> list[Range]:
    """The ranges whose MTHs make PATH(index, D[0:size]) (§2.1.3.1), leaf side first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    ranges: list[Range] = []
    start, end = 0, size
    while end - start > 1:
        k = _largest_power_below(end - start)
        if index < start + k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            start += k
    return ranges[::-1]


def consistency_ranges(first: int, second: int) -> list[Range]:
    """The ranges whose MTHs make PROOF(first, D[0:second]) (§2.1.4.1), deepest first; none
    when first is 0 or equals second (the empty tree, and a tree itself, need no proof)."""
    if not 0 <= first <= second:
        raise ValueError(f"no consistency proof from {first} to {second}")
    if first in (0, second):
        return []
    ranges: list[Range] = []
    start, end, whole = 0, second, True  # whole: b of SUBPROOF, still the old tree's left edge
    m = first
    while m != end - start:
        k = _largest_power_below(end - start)
        if m <= k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            start, m, whole = start + k, m - k, False
    if not whole:
        ranges.append((start, end))
    return ranges[::-1]


def _hashes_of(ranges: Sequence[Range], reader: SubtreeReader) -> list[bytes]:
    """Each range's MTH, with one read for all of them."""
    keys = [range_keys(start, end) for start, end in ranges]
    stored = reader.read({key for run in keys for key in run})
    return [fold([stored[key] for key in run]) for run in keys]


def root(size: int, reader: SubtreeReader) -> bytes:
    return _hashes_of([(0, size)], reader)[0]


def inclusion_proof(index: int, size: int, reader: SubtreeReader) -> list[bytes]:
    return _hashes_of(inclusion_ranges(index, size), reader)


def consistency_proof(first: int, second: int, reader: SubtreeReader) -> list[bytes]:
    return _hashes_of(consistency_ranges(first, second), reader)


def appended_subtrees(
    size: int, frontier: Sequence[bytes], leaf_hashes: Iterable[bytes]
) -> dict[Key, bytes]:
    """Every perfect subtree that leaves appended after `size` complete (their own level-0
    keys included), given the hashes of frontier_keys(size), in its order."""
    stack = list(zip(frontier_keys(size), frontier, strict=True))
    made: dict[Key, bytes] = {}
    for position, hashed in enumerate(leaf_hashes, start=size):
        key, value = (0, position), hashed
        made[key] = value
        while stack and stack[-1][0][0] == key[0]:  # a left sibling of the same level
            (level, index), left = stack.pop()
            key, value = (level + 1, index >> 1), node_hash(left, value)
            made[key] = value
        stack.append((key, value))
    return made
