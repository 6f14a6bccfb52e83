"""docs/clients.md's programs run as written against a live server and play a table to its
end; docs/bots.md's engine is the one the bridge's tests play with."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.clients.test_generators import ROOT, TYPESCRIPT, _node_tool

CLIENTS_DOC = ROOT / "docs/clients.md"
BOTS_DOC = ROOT / "docs/bots.md"


def blocks(doc: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", doc.read_text(), re.MULTILINE | re.DOTALL)


def test_the_python_example_plays_a_table_with_bots_to_the_end(server_url, tmp_path):
    (program,) = blocks(CLIENTS_DOC, "python")
    (tmp_path / "example.py").write_text(program)
    run = subprocess.run(
        [sys.executable, tmp_path / "example.py"], capture_output=True, text=True, timeout=120,
        env={**os.environ, "CARDROOM_URL": server_url},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert re.fullmatch(r"winners: \[[0-9, ]+\]\n", run.stdout)


def test_the_typescript_example_plays_a_table_with_bots_to_the_end(server_url):
    (program,) = blocks(CLIENTS_DOC, "js")
    subprocess.run([_node_tool("tsc"), "-p", TYPESCRIPT], check=True, timeout=300)
    # Inside the package, so that `@cardroom/client` resolves to it (a package's own name).
    example = TYPESCRIPT / "dist/example.mjs"
    example.write_text(program)
    run = subprocess.run(
        ["node", example], capture_output=True, text=True, timeout=120,
        env={**os.environ, "CARDROOM_URL": server_url},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert re.fullmatch(r"winners: \[ [0-9, ]+ \]\n", run.stdout), run.stdout


def test_the_engine_in_the_bots_guide_is_the_one_the_tests_play_with():
    engine = ROOT / "tests/clients/engines/first_legal.py"
    assert engine.read_text() in blocks(BOTS_DOC, "python")
