"""docker/: the compose file is valid Compose (checked against the Compose Specification's own
JSON Schema, as no Docker engine runs here), passes every setting through with the app's own
default, checks health the way docker/healthcheck.py says; the image installs the runtime lock
only, runs as a non-root user, and its build context holds what it needs and no local state."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import tomllib
from pathlib import Path

import jsonschema_rs
import pytest
import yaml

from events.operations.settings import ENVIRONMENT, load_settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker" / "compose.yaml"
DOCKERFILE = ROOT / "docker" / "Dockerfile"
# The Compose Specification's schema/compose-spec.json, vendored: tests/schemas/README.md says
# from where and which version.
SCHEMA = ROOT / "tests" / "schemas" / "compose-spec.json"
HEALTHCHECK = ["CMD", "python", "/app/docker/healthcheck.py"]

# Settings that say where things are inside the compose project (its services and volumes),
# fixed rather than read from the shell, where they may name the servers of `make test`.
# Where things are in the project, and what Pushpin in front of the API makes so.
PLACES = {"DATABASE_URL", "REDIS_URL", "AUDIT_KEY_FILE", "PUSHPIN_URLS", "TRUSTED_PROXIES"}

# What compose does to a string before it uses it, with nothing set in the environment:
# $$ is a literal $, ${NAME:-default} and ${NAME-default} their default, ${NAME} and $NAME "".
VARIABLE = re.compile(r"\$\$|\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)")


def interpolated(value):
    if isinstance(value, str):
        return VARIABLE.sub(lambda m: "$" if m.group(0) == "$$" else m.group(2) or "", value)
    if isinstance(value, dict):
        return {key: interpolated(item) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolated(item) for item in value]
    return value


def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))  # merges the <<: *app keys


def schema_errors(document: dict) -> list[str]:
    validator = jsonschema_rs.validator_for(json.loads(SCHEMA.read_text(encoding="utf-8")))
    return [
        f"{'/'.join(map(str, error.instance_path))}: {error.message}"
        for error in validator.iter_errors(interpolated(document))
    ]


def test_the_compose_file_is_valid_compose():
    assert schema_errors(compose()) == []


def _unknown_healthcheck_key(doc):
    doc["services"]["worker"]["healthcheck"]["intervall"] = "30s"


def _misspelt_condition(doc):
    doc["services"]["api"]["depends_on"]["migrate"]["condition"] = "service_completed"


def _ports_as_a_mapping(doc):
    doc["services"]["api"]["ports"] = {"8000": 8000}


def _unknown_service_key(doc):
    doc["services"]["api"]["healthckeck"] = doc["services"]["api"].pop("healthcheck")


@pytest.mark.parametrize(
    "breaking",
    [_unknown_healthcheck_key, _misspelt_condition, _ports_as_a_mapping, _unknown_service_key],
)
def test_the_schema_catches_a_broken_compose_file(breaking):
    broken = copy.deepcopy(compose())
    breaking(broken)
    assert schema_errors(broken) != []


def app_environment() -> dict[str, str]:
    """The environment every app service (api, worker, migrate) gets from x-app."""
    services = compose()["services"]
    environments = [services[name]["environment"] for name in ("api", "worker", "migrate")]
    assert all(env == environments[0] for env in environments)
    return {name: str(value) for name, value in environments[0].items()}


def test_the_compose_file_passes_every_setting_and_no_other():
    assert sorted(app_environment()) == sorted(ENVIRONMENT)


def test_each_setting_from_the_shell_defaults_to_the_apps_own_default():
    """`NAME: ${NAME:-default}`: the same NAME, and setting it to its default changes nothing;
    a value compose fixes (not from the shell) is a place in the project or the default too."""
    defaults = load_settings({})
    for name, value in app_environment().items():
        variables = VARIABLE.findall(value)
        if name in PLACES:
            assert variables == [], f"{name} is where things are in the project, not the shell's"
            continue
        if variables:
            assert VARIABLE.fullmatch(value) and variables[0][0] == name, f"{name}: {value}"
        assert load_settings({name: interpolated(value)}) == defaults, f"{name}: {value}"


def test_the_api_and_the_worker_report_health():
    services = compose()["services"]
    assert services["api"]["healthcheck"]["test"] == [*HEALTHCHECK, "api"]
    assert services["worker"]["healthcheck"]["test"] == [*HEALTHCHECK, "worker"]
    assert services["migrate"]["healthcheck"] == {"disable": True}  # the image's API check
    assert "/healthz" not in COMPOSE.read_text() + DOCKERFILE.read_text()
    assert "/readyz" in (ROOT / "docker" / "healthcheck.py").read_text()


def installed_packages() -> set[str]:
    """The top-level packages `pip install .` installs (pyproject.toml's package discovery)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return {name.split(".")[0] for name in included}


def modules_run(service: dict) -> list[str]:
    """The modules a service's command runs with `python -m`, its shell line's too."""
    command = service.get("command", [])
    line = command if isinstance(command, str) else " ".join(command)
    return re.findall(r"\bpython -m ([\w.]+)", line)


def test_pushpin_is_configured_by_the_installed_api_not_by_embedded():
    assert modules_run(compose()["services"]["pushpin"]) == ["api.server.pushpin_conf"]
    assert (ROOT / "api" / "server" / "pushpin_conf.py").is_file()


def test_compose_runs_modules_of_the_installed_packages_and_none_of_embedded():
    """embedded/ is `make run`'s servers: a deployment that ran one of its modules would break
    the day embedded/ left the image."""
    installed = installed_packages() - {"embedded"}
    run = {name: modules_run(service) for name, service in compose()["services"].items()}
    modules = [module for names in run.values() for module in names]
    assert len(modules) >= 3, run  # migrate, pushpin, worker at least
    for module in modules:
        assert module.split(".")[0] in installed, (module, run)
        path = ROOT.joinpath(*module.split("."))
        assert path.with_suffix(".py").is_file() or (path / "__main__.py").is_file(), module


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of each instruction, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_the_image_installs_the_runtime_lock_and_then_the_project_alone():
    instructions = dockerfile()
    runs = [arguments for instruction, arguments in instructions if instruction == "RUN"]
    assert "apt-get install -y --no-install-recommends pushpin" in runs.pop(0)  # Debian's
    assert runs[0] == "pip install --require-hashes -r requirements.txt"
    assert runs[1].startswith("pip install --no-deps --no-build-isolation -e . ")
    assert ("COPY", "requirements.txt ./") in instructions  # copied before the sources
    assert instructions.index(("COPY", "requirements.txt ./")) < instructions.index(("COPY", ". ."))


def test_the_image_checks_readiness_and_runs_as_a_user():
    instructions = dockerfile()
    (healthcheck,) = [args for instruction, args in instructions if instruction == "HEALTHCHECK"]
    assert healthcheck.endswith('CMD ["python", "/app/docker/healthcheck.py", "api"]')
    users = [args for instruction, args in instructions if instruction == "USER"]
    assert users and users[-1] not in ("root", "0")
    created = next(args for instruction, args in instructions if "useradd" in args)
    assert f" {users[-1]}" in created.split("useradd", 1)[1].split("&&")[0]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves path out of the build context: the last pattern matching it or one
    of its parent directories decides; `!` brings a path back."""
    parts = path.split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    result = False
    for pattern in patterns:
        keep = pattern.startswith("!")
        regex = glob_regex(pattern.removeprefix("!").strip("/"))
        if any(regex.fullmatch(candidate) for candidate in candidates):
            result = not keep
    return result


def glob_regex(pattern: str) -> re.Pattern[str]:
    tokens = re.split(r"(\*\*/|\*\*|\*|\?)", pattern)
    wildcards = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    return re.compile("".join(wildcards.get(token, re.escape(token)) for token in tokens))


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_one_dockerignore_for_both_builders():
    # BuildKit would read docker/Dockerfile.dockerignore instead of the root file; legacy
    # builds only the root one: two files would drift apart.
    assert not (ROOT / "docker" / "Dockerfile.dockerignore").exists()
    assert dockerignore()


def test_the_build_context_has_what_the_image_needs_and_no_local_state():
    patterns = dockerignore()
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    packages = ("api/", "domain/", "events/", "workers/", "embedded/")
    needed = [path for path in tracked if path.startswith(packages)]
    needed += ["pyproject.toml", "README.md", "openapi.yaml", "requirements.txt"]
    needed += ["docker/healthcheck.py"]
    assert [path for path in needed if ignored(path, patterns)] == []
    local = [".venv/bin/python", ".data/audit-key.pem", ".git/HEAD", "tests/test_docker.py"]
    local += ["api/__pycache__/app.cpython-311.pyc", "cardroom.egg-info/PKG-INFO", "keys/a.pem"]
    assert [path for path in local if not ignored(path, patterns)] == []


def test_the_image_gets_no_test_or_bench_helpers():
    tracked = subprocess.run(
        ["git", "ls-files", "testing", "tests", "bench", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert any(path.startswith("testing/") for path in tracked)
    assert [path for path in tracked if not ignored(path, dockerignore())] == []
