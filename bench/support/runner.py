"""`python -m bench`: the one runner of the benchmarks.

    python -m bench --list                 every benchmark, its settings and its goals
    python -m bench NAME [--SETTING V ...] run one (a service started as `make run` starts it,
                                           or the one at --url)
    python -m bench all --quick            every one, briefly
    python -m bench report                 docs/benchmarks.md's tables from the latest results

Each run prints its progress and figures, then a PASS/FAIL table of its goals, and writes
bench/results/NAME/latest.json (figures, goals, verdicts, settings, command, git revision,
machine). The exit code is 1 when a goal is missed, 2 when a benchmark failed to run."""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import pkgutil
import platform
import re
import shlex
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import bench
from bench.support.benchmark import (
    FAIL,
    NOT_MEASURED,
    PASS,
    SKIPPED,
    Benchmark,
    Context,
    Settings,
    Skip,
)
from bench.support.service import REPO, Service, started_service

RESULTS = REPO / "bench" / "results"
DOCS = REPO / "docs" / "benchmarks.md"
BLOCK = re.compile(r"(<!-- bench (\S+) -->\n)(.*?)(<!-- /bench -->)", re.S)


def benchmarks() -> dict[str, Benchmark]:
    """Every module of bench/ (and of its packages but support/) that declares BENCHMARK."""
    found: dict[str, Benchmark] = {}
    for module in pkgutil.walk_packages(bench.__path__, "bench."):
        path = REPO / (module.name.replace(".", "/") + ".py")
        if module.name.startswith("bench.support") or not path.exists():
            continue
        if "\nBENCHMARK = " not in path.read_text():
            continue  # a helper, or a tool: importing it is no business of the runner's
        declared = getattr(importlib.import_module(module.name), "BENCHMARK", None)
        if isinstance(declared, Benchmark):
            found[declared.name] = declared
    return dict(sorted(found.items()))


# --- one run ---------------------------------------------------------------------------------


def revision() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
        return done.stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + ("-dirty" if dirty else "")


def record(mark: Benchmark, settings: Settings, context: Context, command: str) -> dict[str, Any]:
    """Runs one benchmark; its figures, verdicts and where and how they were taken."""
    started, at = time.perf_counter(), datetime.now(UTC)
    result: dict[str, Any] = {"benchmark": mark.name, "about": mark.about, "command": command,
                              "quick": context.quick, "settings": settings}  # fmt: skip
    figures: dict[str, Any] = {}
    try:
        figures = mark.run(context, settings)
        verdicts = [goal.verdict(figures) for goal in mark.goals]
        result["verdict"] = FAIL if FAIL in verdicts else PASS if PASS in verdicts else NOT_MEASURED
    except Skip as why:
        result["verdict"], result["skipped"] = SKIPPED, str(why)
        verdicts = [SKIPPED] * len(mark.goals)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the others of `all` still run
        traceback.print_exc()
        result["verdict"], result["error"] = "error", f"{type(error).__name__}: {error}"
        verdicts = ["error"] * len(mark.goals)
    result["figures"] = figures
    result["goals"] = [
        {"figure": g.figure, "op": g.op, "target": g.target, "unit": g.unit, "about": g.text,
         "value": g.value(figures), "verdict": v}
        for g, v in zip(mark.goals, verdicts, strict=True)
    ]  # fmt: skip
    machine = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    result |= {"date": at.strftime("%Y-%m-%d"), "started_at": at.isoformat(timespec="seconds"),
               "seconds": round(time.perf_counter() - started, 1), "revision": revision(),
               "machine": machine}  # fmt: skip
    return result


def shown(value: Any, unit: str = "") -> str:
    if isinstance(value, bool) or value is None:
        text = str(value)
    elif isinstance(value, float):
        text = (
            "n/a" if math.isnan(value) else f"{value:,.1f}" if abs(value) >= 10 else f"{value:.3g}"
        )
    elif isinstance(value, int):
        text = f"{value:,}"
    else:
        text = json.dumps(value, default=str) if not isinstance(value, str) else value
    return f"{text} {unit}".strip()


def print_result(result: dict[str, Any]) -> None:
    print(f"\n== {result['benchmark']}: {result['about']}")
    for name, value in result["figures"].items():
        print(f"  {name:40} {shown(value)}")
    for reason in ("skipped", "error"):
        if reason in result:
            print(f"  {reason}: {result[reason]}")
    width = max((len(g["about"]) for g in result["goals"]), default=10)
    for goal in result["goals"]:
        print(
            f"  {goal['verdict']:8} {goal['about']:{width}}  {shown(goal['value'], goal['unit'])}"
        )
    print(f"  ({result['seconds']} s, revision {result['revision']})", flush=True)


def write(result: dict[str, Any], results: Path) -> Path:
    folder = results / result["benchmark"]
    folder.mkdir(parents=True, exist_ok=True)
    path: Path = folder / "latest.json"
    path.write_text(json.dumps(result, indent=2, default=str) + "\n")
    return path


def services(
    marks: list[tuple[Benchmark, Settings]], url: str | None, quick: bool
) -> Iterator[tuple[Benchmark, Settings, Context]]:
    """Each benchmark with its context: the service at `url`, or one started for each run of
    benchmarks that share an environment (consecutive ones, so `all` starts few)."""
    with ExitStack() as stack:
        current: tuple[tuple[str, str], ...] | None = None
        service: Service | None = None
        for mark, settings in marks:
            if not mark.needs_service:
                yield mark, settings, Context("", None, quick)
                continue
            if url:
                yield mark, settings, Context(url, None, quick)
                continue
            env = tuple(sorted(mark.env(settings).items()))
            if env != current:
                stack.close()
                print(f"[bench] starting the service ({dict(env) or 'as make run'})",
                      file=sys.stderr, flush=True)  # fmt: skip
                service = stack.enter_context(started_service(dict(env)))
                print(f"[bench] service at {service.url}, log {service.log_path}",
                      file=sys.stderr, flush=True)  # fmt: skip
                current = env
            assert service is not None
            yield mark, settings, Context(service.url, service, quick)


# --- the report ------------------------------------------------------------------------------


def report_table(result: dict[str, Any]) -> str:
    rows = ["| goal | figure | verdict | date | command |", "|---|---|---|---|---|"]
    for goal in result["goals"]:
        rows.append(f"| {goal['about']} | {shown(goal['value'], goal['unit'])} |"
                    f" {goal['verdict']} | {result['date']} | `{result['command']}` |")  # fmt: skip
    return "\n".join(rows) + "\n"


def rewrite(text: str, results: Path) -> tuple[str, list[str]]:
    """Each `<!-- bench NAME -->` block of `text` rebuilt from NAME's latest full (not quick)
    result, the others kept as they are; the names rebuilt."""
    rebuilt: list[str] = []

    def block(match: re.Match[str]) -> str:
        path = results / match[2] / "latest.json"
        if not path.exists():
            return match[0]
        result = json.loads(path.read_text())
        if result.get("quick") or result.get("verdict") in (SKIPPED, "error"):
            return match[0]
        rebuilt.append(match[2])
        return match[1] + report_table(result) + match[4]

    return BLOCK.sub(block, text), rebuilt


# --- the command line ------------------------------------------------------------------------


def loose(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def settings_parser(mark: Benchmark) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m bench {mark.name}", description=mark.about)
    for name, value in mark.settings.items():
        option = "--" + name.replace("_", "-")
        default = value[0] if isinstance(value, tuple) else value
        quick = f", quick {value[1]}" if isinstance(value, tuple) else ""
        helped = f"default {default}{quick}"
        if isinstance(default, bool):
            parser.add_argument(option, action=argparse.BooleanOptionalAction, help=helped)
        elif isinstance(default, list):
            kind = type(default[0]) if default else loose
            parser.add_argument(option, nargs="*", type=kind, help=helped)
        else:
            kind = loose if default is None else type(default)
            parser.add_argument(option, type=kind, help=helped)
    return parser


def listing(marks: dict[str, Benchmark]) -> str:
    lines = []
    for mark in marks.values():
        lines.append(f"{mark.name}: {mark.about}")
        for goal in mark.goals:
            lines.append(f"    goal: {goal.text}")
        if mark.settings:
            lines.append("    settings: " + ", ".join(f"{k}={v}" for k, v in mark.settings.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__, add_help=False,
                                     allow_abbrev=False,
                                     formatter_class=argparse.RawTextHelpFormatter)  # fmt: skip
    parser.add_argument("-h", "--help", action="store_true", help="this, or NAME's settings")
    parser.add_argument("name", nargs="?", help="a benchmark, `all` or `report`")
    parser.add_argument("--list", action="store_true", help="the benchmarks and their goals")
    parser.add_argument("--quick", action="store_true", help="each setting's quick value")
    parser.add_argument("--url", help="a running service instead")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the JSON goes")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the page `report` rewrites")
    args, rest = parser.parse_known_args(argv)
    marks = benchmarks()
    if args.help:
        (settings_parser(marks[args.name]) if args.name in marks else parser).print_help()
        return 0
    if args.list or not args.name:
        print(listing(marks))
        return 0
    if args.name == "report":
        text, rebuilt = rewrite(args.docs.read_text(), args.results)
        args.docs.write_text(text)
        print(f"rebuilt {len(rebuilt)} tables: {', '.join(rebuilt) or 'none'}")
        return 0
    if args.name != "all" and args.name not in marks:
        parser.error(f"no benchmark {args.name!r} (python -m bench --list)")
    chosen = list(marks.values()) if args.name == "all" else [marks[args.name]]
    given: dict[str, Any] = {}
    if args.name != "all":
        given = vars(settings_parser(chosen[0]).parse_args(rest))
    elif rest:
        parser.error(f"settings go with one benchmark, not `all`: {' '.join(rest)}")
    runs = [(m, m.resolved(args.quick, given)) for m in chosen]
    runs.sort(key=lambda run: sorted(run[0].env(run[1]).items()))  # one service for many
    options = [*(["--quick"] if args.quick else []), *(["--url", args.url] if args.url else [])]
    results = []
    for mark, settings, context in services(runs, args.url, args.quick):
        command = shlex.join(["python", "-m", "bench", mark.name, *options, *rest])
        print(f"[bench] {mark.name}: {command}", file=sys.stderr, flush=True)
        result = record(mark, settings, context, command)
        print_result(result)
        print(f"  figures in {write(result, args.results)}")
        results.append(result)
    if len(results) > 1:
        print("\n" + "\n".join(f"{r['verdict']:8} {r['benchmark']}" for r in results))
    verdicts = {r["verdict"] for r in results}
    return 2 if "error" in verdicts else 1 if FAIL in verdicts else 0
