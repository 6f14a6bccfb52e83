"""`make run NODES=2` without Debian's haproxy or pushpin exits at once, non-zero, with one line
naming the package to install; one node never needs either."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from embedded.front_door import missing_package
from tests.deploy.launcher import ROOT

pytestmark = pytest.mark.skipif(missing_package() is not None, reason=str(missing_package()))


def run_with_path(path: Path, **environment: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": str(path), "PORT": "1", **environment}
    return subprocess.run(
        [sys.executable, "-m", "embedded.run"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip


def commands(directory: Path, *names: str) -> Path:
    """A PATH of its own, holding only the named commands of this machine."""
    directory.mkdir()
    for name in names:
        found = subprocess.run(["which", name], capture_output=True, text=True).stdout.strip()
        (directory / name).symlink_to(found)
    return directory


@pytest.mark.parametrize(
    ("installed", "named"), [((), "haproxy"), (("haproxy",), "pushpin"), (("pushpin",), "haproxy")]
)
def test_nodes_2_without_a_package_is_one_line_naming_it(tmp_path, installed, named):
    result = run_with_path(commands(tmp_path / "bin", *installed), NODES="2")
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert f"install Debian's {named} package" in result.stderr


def test_fanout_pushpin_asks_for_the_same_front_door(tmp_path):
    result = run_with_path(commands(tmp_path / "bin"), FANOUT="pushpin")
    assert result.returncode == 1
    assert "haproxy" in result.stderr


def test_nodes_2_with_streams_on_the_api_is_refused_in_one_line(tmp_path):
    everything = commands(tmp_path / "bin", "haproxy", "pushpin")
    result = run_with_path(everything, NODES="2", FANOUT="embedded")
    assert result.returncode == 1
    assert "FANOUT=embedded is for one node" in result.stderr
