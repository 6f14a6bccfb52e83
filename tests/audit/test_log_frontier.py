"""events/audit/log_frontier.py: a monitor's memory of a tree gives, leaf by leaf, the root of
every tree RFC 9162 defines, and carries over from one tree to every later one."""

from __future__ import annotations

from events.audit.log_frontier import Frontier
from tests.audit.naive_tree import NaiveTree

TREE = NaiveTree([f"game {i}".encode() for i in range(70)])


def test_appending_leaf_after_leaf_gives_the_root_of_every_tree():
    frontier = Frontier()
    assert frontier.root() == TREE.root(0)
    for size in range(1, 71):
        frontier.append(TREE.leaf_hash(size - 1))
        assert frontier.is_well_formed()
        assert frontier.size == size
        assert frontier.root() == TREE.root(size), size


def test_a_frontier_kept_at_one_size_extends_to_every_later_tree():
    for kept in range(0, 40):
        frontier = Frontier()
        for index in range(kept):
            frontier.append(TREE.leaf_hash(index))
        carried = Frontier(frontier.size, list(frontier.hashes))
        for index in range(kept, 70):
            carried.append(TREE.leaf_hash(index))
        assert carried.root() == TREE.root(70)


def test_a_frontier_with_a_hash_too_many_or_too_few_is_not_well_formed():
    assert not Frontier(3, [TREE.root(2)]).is_well_formed()
    assert not Frontier(4, [TREE.root(4), TREE.leaf_hash(0)]).is_well_formed()
