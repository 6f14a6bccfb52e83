"""Adding a game touches its folder and one registry line, for the whole product: High Card
(tests/fifth_game/high_card/) is put into a copy of this repository as domain/games/high_card/,
with one line in domain/games/__init__.py. Then the generators run (`make spec`, `make docs`),
and nothing else differs: the spec, the docs and the web client follow, and the copy's own
checks of them pass."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "tests" / "fifth_game" / "high_card"
REGISTRY = "domain/games/__init__.py"
LAST_LINE = '    "ouroboros_trick",\n'
# What the generators may write for a new game, besides its folder.
GENERATED = {
    "openapi.yaml",
    "docs/rules.md",
    "docs/rules/high_card.md",
    *(f"docs/rules/guides/high_card.{lang}.md" for lang in ("en", "fr")),
}

BY_HAND: dict[str, str] = {}

pytestmark = pytest.mark.slow


def tracked_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [name for name in listed.stdout.decode().split("\0") if (ROOT / name).is_file()]


def digest_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digests(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): digest_of(path)
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def run(copy: Path, *args: str) -> str:
    """A Python command in the copy, whose packages shadow the installed project's."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """This repository as it stands, with High Card added by hand: its folder and one line;
    `by_hand` keeps the digests of its files at that point, before any generator ran."""
    copy = tmp_path_factory.mktemp("with-high-card")
    for name in tracked_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(GAME, copy / "domain" / "games" / "high_card",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    registry = copy / REGISTRY
    text = registry.read_text()
    assert text.count(LAST_LINE) == 1, "the registry's last game moved: update this test"
    registry.write_text(text.replace(LAST_LINE, LAST_LINE + '    "high_card",\n'))
    BY_HAND.update(digests(copy))
    return copy


@pytest.fixture(scope="module")
def generated(copy) -> set[str]:
    """The files the generators changed in the copy, relative to this repository."""
    before = digests(copy)
    run(copy, "-m", "api.spec_parts")
    run(copy, "-m", "api.docs_parts", "--write")
    after = digests(copy)
    return {name for name, digest in after.items() if before.get(name) != digest}


def test_the_copy_runs_its_own_code_not_the_installed_projects(copy):
    where = run(copy, "-c", "import domain.games, api; print(domain.games.__file__)")
    assert Path(where.strip()).is_relative_to(copy)


def test_by_hand_only_the_games_folder_and_one_registry_line_differ(copy):
    ours = {name: digest_of(ROOT / name) for name in tracked_files()}
    changed = {name for name, digest in BY_HAND.items() if ours.get(name) != digest}
    assert {n for n in changed if not n.startswith("domain/games/high_card/")} == {REGISTRY}
    added = set((copy / REGISTRY).read_text().splitlines()) - set(
        (ROOT / REGISTRY).read_text().splitlines()
    )
    assert added == {'    "high_card",'}


def test_the_generators_write_only_the_generated_files(generated):
    assert "openapi.yaml" in generated and "docs/rules.md" in generated
    assert generated <= GENERATED


def test_the_copy_serves_the_new_game_and_its_spec_describes_it(copy, generated):
    listed = run(copy, "-c", (
        "import json; from domain.games import GAME_TYPES; "
        "from api.resources.game_types import described; "
        "print(json.dumps([described(g) for g in GAME_TYPES.values()]))"
    ))  # fmt: skip
    types = {game["id"]: game for game in json.loads(listed)}
    assert types["high_card"]["suits"] == ["stars"]
    spec = (copy / "openapi.yaml").read_text()
    assert "CreateHighCard2:" in spec and "const: high_card" in spec


def test_the_copys_drift_checks_pass_with_the_new_game(copy, generated):
    checks = ["tests/api/test_spec_parts.py", "tests/api/test_docs_parts.py",
              "tests/api/test_play_page.py", "tests/api/test_game_types.py",
              "tests/test_registry.py", "tests/domain/test_game_kit.py"]  # fmt: skip
    run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", *checks)
