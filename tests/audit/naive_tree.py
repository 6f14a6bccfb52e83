"""RFC 9162's Merkle tree and proofs as the RFC defines them, recursively and naively (§2.1.1
MTH, §2.1.3.1 PATH, §2.1.4.1 PROOF and SUBPROOF), for the tests of the public log's readers:
nothing here is shared with the log's writer."""

from __future__ import annotations

import hashlib
from functools import cache


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def largest_power_of_two_below(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


class NaiveTree:
    """A tree of the leaves given (their bytes, not yet hashed), and every earlier tree."""

    def __init__(self, leaves: list[bytes]) -> None:
        self.leaves = list(leaves)
        self.mth = cache(self._mth)

    def _mth(self, start: int, end: int) -> bytes:
        """MTH(D[start:end])."""
        n = end - start
        if n == 0:
            return sha256(b"")
        if n == 1:
            return sha256(b"\x00" + self.leaves[start])
        k = largest_power_of_two_below(n)
        return sha256(b"\x01" + self.mth(start, start + k) + self.mth(start + k, end))

    def root(self, size: int) -> bytes:
        return self.mth(0, size)

    def leaf_hash(self, index: int) -> bytes:
        return self.mth(index, index + 1)

    def inclusion(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[0:size])."""
        return self._path(index, 0, size)

    def consistency(self, first: int, second: int) -> list[bytes]:
        """PROOF(first, D[0:second]); empty from the empty tree."""
        return self._subproof(first, 0, second, True) if first else []

    def _path(self, m: int, start: int, end: int) -> list[bytes]:
        n = end - start
        if n == 1:
            return []
        k = largest_power_of_two_below(n)
        if m < k:
            return self._path(m, start, start + k) + [self.mth(start + k, end)]
        return self._path(m - k, start + k, end) + [self.mth(start, start + k)]

    def _subproof(self, m: int, start: int, end: int, whole: bool) -> list[bytes]:
        """SUBPROOF(m, D[start:end], whole)."""
        n = end - start
        if m == n:
            return [] if whole else [self.mth(start, end)]
        k = largest_power_of_two_below(n)
        if m <= k:
            return self._subproof(m, start, start + k, whole) + [self.mth(start + k, end)]
        return self._subproof(m - k, start + k, end, False) + [self.mth(start, start + k)]
