"""The spec reads whole: the most used Python and TypeScript client generators take openapi.yaml
without a warning, give a model for every JSON answer, and type the game, its action results and
its events fully (no `unknown`). The TypeScript client's committed types are what the generator
writes today."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
PYTHON_CONFIG = ROOT / "clients/generators/openapi-python-client.yaml"
TYPESCRIPT = ROOT / "clients/typescript"
COMMITTED_TYPES = TYPESCRIPT / "src/spec.ts"
FULLY_TYPED = ["Game", "CreatedGame", "ActionResult", "Event", "EventPage", "Action"]


def _node_tool(name: str) -> Path:
    """A tool of clients/typescript's locked dev dependencies (`npm ci --prefix
    clients/typescript`); CI (REQUIRE_CLIENT_TOOLS) must have them rather than skip."""
    tool = TYPESCRIPT / "node_modules/.bin" / name
    if not tool.exists():
        if os.environ.get("REQUIRE_CLIENT_TOOLS"):
            pytest.fail(f"REQUIRE_CLIENT_TOOLS is set but {tool} is missing", pytrace=False)
        pytest.skip(f"{name} not installed: npm ci --prefix clients/typescript")
    return tool


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _json_answer_schemas() -> set[str]:
    spec = yaml.safe_load(SPEC.read_text())
    named: set[str] = set()
    for operations in spec["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for answer in operation.get("responses", {}).values():
                if "$ref" in answer:
                    answer = spec["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
                schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
                if "$ref" in schema:
                    named.add(schema["$ref"].rsplit("/", 1)[1])
    return named


def test_openapi_python_client_reads_the_spec_without_a_warning(tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    out = tmp_path / "client"
    run = subprocess.run(
        [bin_dir / "openapi-python-client", "generate", "--path", SPEC, "--output-path", out,
         "--meta", "none", "--config", PYTHON_CONFIG],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},  # its ruff
    )  # fmt: skip
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert not re.search(r"warning|error|unable|cannot", said, re.IGNORECASE), said
    models = {path.stem for path in (out / "models").glob("*.py")}
    missing = {name for name in _json_answer_schemas() if _snake(name) not in models}
    assert not missing, f"no model for {sorted(missing)}"


def _referenced(types: str, names: list[str]) -> set[str]:
    found, todo = set[str](), list(names)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += re.findall(r'components\["schemas"\]\["(\w+)"\]', _schema_block(types, name))
    return found


def _schema_block(types: str, name: str) -> str:
    start = types.index(f"\n        {name}: ")
    end = re.compile(r"\n        [A-Za-z]+: ").search(types, start + 1)
    return types[start : end.start() if end else None]


def test_openapi_typescript_types_the_game_its_results_and_events_fully(tmp_path: Path) -> None:
    out = tmp_path / "spec.ts"
    generate = [_node_tool("openapi-typescript"), SPEC, "-o", out]
    subprocess.run(generate, check=True, capture_output=True, timeout=120)
    types = out.read_text()
    for name in _referenced(types, FULLY_TYPED):  # and every schema they are made of
        block = _schema_block(types, name)
        assert "unknown" not in block and "Record<string, never>" not in block, name
    assert re.search(r'type: "play_card";', _schema_block(types, "Action"))


def test_the_typescript_clients_committed_types_are_the_generators(tmp_path: Path) -> None:
    out = tmp_path / "spec.ts"
    generate = [_node_tool("openapi-typescript"), SPEC, "-o", out]
    subprocess.run(generate, check=True, capture_output=True, timeout=120)
    assert out.read_text() == COMMITTED_TYPES.read_text(), (
        "clients/typescript/src/spec.ts differs from openapi.yaml: npm run --prefix"
        " clients/typescript types"
    )


def test_the_generated_types_compile_under_strict_typescript(tmp_path: Path) -> None:
    tsc = _node_tool("tsc")
    copy = tmp_path / "spec.ts"
    shutil.copy(COMMITTED_TYPES, copy)
    run = subprocess.run(
        [tsc, "--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", copy],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
