"""`pip install .` makes a package that works away from the source tree: built as a wheel and
installed into a fresh venv, run from a directory with no sources in it, it migrates an empty
database and serves the repo's own openapi.yaml, byte for byte, and the web client's files (the
games' guides and view modules among them). The wheel holds the packages a deployment runs
and `make run`'s embedded servers, never the tests' helpers (testing/)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import psycopg
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
# What the wheel installs: the deployed packages, and embedded/ for the `embedded` extra.
INSTALLED = {"api", "domain", "events", "workers", "embedded"}
MIGRATIONS = sorted(path.name for path in (ROOT / "events/postgres/migrations").glob("*.sql"))
# Run inside the fresh venv: where the packages come from, and what /openapi.yaml serves.
SERVE_SPEC = """
import json, sys
import api, events
client = api.create_app().test_client()
response = client.get("/openapi.yaml")
where = {"api": api.__file__, "events": events.__file__, "status": response.status_code}
# What the web client loads from the package: a game's guide (its folder's) and view module.
where["client"] = [client.get(path).status_code for path in (
    "/play/guides/st_patrick.fr.md", "/play/guides/glossary.en.md",
    "/play/assets/games/st_patrick.js", "/play/assets/app.js")]
sys.stdout.buffer.write(json.dumps(where).encode() + b"\\n" + response.get_data())
"""


def run(*command: str | Path, **options) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run(list(map(str, command)), capture_output=True, timeout=300, **options)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done


def copy_of_sources(to: Path) -> Path:
    """What the build reads, copied: building writes build/ and *.egg-info beside its sources,
    which must not land in a working tree that another run may be building from."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = config["tool"]["setuptools"]["packages"]["find"]["include"]
    to.mkdir()
    for name in ("pyproject.toml", "README.md", "openapi.yaml"):
        shutil.copy2(ROOT / name, to / name)
    for package in {name.split(".")[0] for name in included}:
        # symlinks=True: api/openapi.yaml stays the link to the top-level file that it is.
        shutil.copytree(
            ROOT / package,
            to / package,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    return to


def build_wheel(sources: Path, out: Path) -> Path:
    # No build isolation and no index: the project venv's own setuptools builds (the dev extra
    # asks for one that needs no `wheel` package), so this works offline.
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", out, sources)
    (wheel,) = out.glob("cardroom-*.whl")
    return wheel


def fresh_venv(at: Path, wheel: Path) -> Path:
    """A venv holding the wheel alone; its python. The dependencies are the project venv's, by a
    .pth line, since installing them would need an index. A .pth path line only appends to
    sys.path: the project venv's own .pth files (its editable install of the sources) do not
    run, and the fresh venv's site-packages, the wheel's, come first."""
    run(sys.executable, "-m", "venv", "--without-pip", at)
    python = at / "bin" / "python"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--python", python)
    run(*pip, "install", "--no-deps", "--no-index", "-q", wheel)
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    site_packages = Path(purelib.stdout.decode().strip())
    (site_packages / "project-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python


def run_installed(python: Path, *args: str, cwd: Path, env: dict[str, str]) -> bytes:
    """`python -I`: neither the working directory nor PYTHONPATH on sys.path, so whatever is
    imported comes from the installed package, run from a directory with no sources."""
    return run(python, "-I", *args, cwd=cwd, env=env).stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = tmp_path_factory.mktemp("wheel")
    return build_wheel(copy_of_sources(built / "sources"), built / "wheels")


def test_the_wheel_holds_the_installed_packages_and_not_the_tests_helpers(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == INSTALLED
    assert not [name for name in names if name.startswith(("testing/", "tests/", "bench/"))]


def test_the_installed_wheel_migrates_an_empty_database_and_serves_the_spec(
    wheel, tmp_path, empty_database_url, redis_url, queue_name
):
    python = fresh_venv(tmp_path / "venv", wheel)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DATABASE_URL": empty_database_url,
        "REDIS_URL": redis_url,
        "RQ_QUEUE": queue_name,
        "AUDIT_KEY_FILE": str(elsewhere / "audit-key.pem"),
        "LOG_LEVEL": "WARNING",
    }

    migrated = run_installed(python, "-m", "events.postgres.migrate", cwd=elsewhere, env=env)
    assert migrated.decode().strip() == "applied: " + ", ".join(MIGRATIONS)
    with psycopg.connect(empty_database_url) as conn:
        rows = conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()
    assert [name for (name,) in rows] == MIGRATIONS

    served = run_installed(python, "-c", SERVE_SPEC, cwd=elsewhere, env=env)
    where_line, spec = served.split(b"\n", 1)
    where = json.loads(where_line)
    installed = str(python.parent.parent)
    assert where["api"].startswith(installed) and where["events"].startswith(installed), where
    assert where["status"] == 200 and where["client"] == [200] * 4, where
    assert spec == (ROOT / "openapi.yaml").read_bytes()
