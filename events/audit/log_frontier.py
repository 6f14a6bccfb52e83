"""A monitor's memory of a tree it has checked: the roots of its perfect subtrees, largest
first, one per bit set in its size (RFC 9162 §2.1.1's tree splits leaves that way). With them,
appending the new leaves gives the new tree's root without reading the old leaves again, so a
checkpoint whose root that does not give is not an extension of the tree remembered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from events.audit.log_format import EMPTY_ROOT, node_hash


@dataclass
class Frontier:
    size: int = 0
    hashes: list[bytes] = field(default_factory=list)  # the perfect subtrees, left to right

    def is_well_formed(self) -> bool:
        return self.size >= 0 and len(self.hashes) == self.size.bit_count()

    def append(self, leaf_hash: bytes) -> None:
        """Leaf `size`: it merges with each subtree of its own size to its left."""
        node, size = leaf_hash, self.size
        while size & 1:
            node = node_hash(self.hashes.pop(), node)
            size >>= 1
        self.hashes.append(node)
        self.size += 1

    def root(self) -> bytes:
        """The root, folding the subtrees from the right (the smallest is the deepest)."""
        if not self.hashes:
            return EMPTY_ROOT
        root = self.hashes[-1]
        for left in reversed(self.hashes[:-1]):
            root = node_hash(left, root)
        return root
