"""The domain is pure rules: it imports nothing that does I/O, keeps time or makes randomness."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {
    "flask", "psycopg", "psycopg_pool", "redis", "rq", "marshmallow", "random", "time",
    "datetime", "os", "socket", "secrets", "requests", "uuid",
}  # fmt: skip
DOMAIN = Path(__file__).resolve().parents[2] / "domain"


def imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            roots.add("__import__")  # dynamic imports would dodge this check
    return roots


def test_no_domain_module_imports_io_clock_or_randomness():
    files = sorted(DOMAIN.rglob("*.py"))
    assert files, "the domain package was not found"
    offenders = {
        str(path.relative_to(DOMAIN)): sorted(bad)
        for path in files
        if (bad := imported_roots(path.read_text()) & (FORBIDDEN | {"__import__"}))
    }
    assert offenders == {}


def test_the_purity_check_catches_a_forbidden_import():
    assert imported_roots("import os.path\nfrom random import choice\n") == {"os", "random"}
