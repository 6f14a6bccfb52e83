"""tools/side_by_side.py: the other revision is checked out beside this one for the run only."""

from __future__ import annotations

import subprocess

import pytest

from bench.support.service import REPO
from bench.support.stats import median
from tools.side_by_side import worktree


def worktrees() -> str:
    return subprocess.run(["git", "-C", str(REPO), "worktree", "list"], check=True,
                          capture_output=True, text=True).stdout  # fmt: skip


def test_the_other_revision_is_checked_out_and_gone_afterwards():
    with worktree("HEAD") as tree:
        assert (tree / "pyproject.toml").read_bytes() == (REPO / "pyproject.toml").read_bytes()
        assert str(tree) in worktrees()

    assert not tree.exists()
    assert str(tree) not in worktrees()


def test_a_failed_run_leaves_no_worktree_behind():
    with pytest.raises(RuntimeError), worktree("HEAD") as tree:
        raise RuntimeError("the bench failed")

    assert not tree.exists()
    assert str(tree) not in worktrees()


def test_the_median_of_an_odd_and_an_even_count_is_a_middle_round():
    assert median([0.9, 0.7, 0.8]) == 0.8
    assert median([0.9, 0.7, 0.8, 0.6]) == 0.8
