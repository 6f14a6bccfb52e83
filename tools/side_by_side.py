"""The API's CPU per action, this checkout against another revision, both served at once.

    .venv/bin/python -m tools.side_by_side --ref f62d49c
    .venv/bin/python -m tools.side_by_side --ref HEAD~3 --game st_patrick --rounds 8

On this machine the same code's CPU per action drifts by a quarter from one minute to the
next, so runs one after the other cannot show a change of a tenth. Here both APIs run side by
side and are driven at the same time, --clients keep-alive threads each, so whatever the
machine does it does to both: what differs between them in a round is the code's.

This checkout is started as `make run` starts it (bench/support/service.py); --ref is checked
out in a temporary git worktree and served by a second gunicorn beside it
(bench/support/service.second_api), on the same database, Redis and worker, and with this
checkout's .venv: a revision that needs a package this one dropped needs it installed there
first (f62d49c: flask-cors). Each side's games are four humans, played as bench/floor.py plays
them (the acting seat's view, then its action). Per round and side: the CPU seconds of its
gunicorn master, workers and stream processes per action; then the ratio of this checkout's to
--ref's, round by round, and its median (below 1: this checkout spends less).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from bench.support import server_procs
from bench.support.players import Api, TablePlayer, Tally
from bench.support.service import REPO, second_api, started_service
from bench.support.stats import Progress, median

WARMUP = 10  # uncounted actions per client before each round


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--ref", required=True, help="the revision to compare with (git rev)")
    p.add_argument("--game", default="trick_and_snipers")
    p.add_argument("--clients", type=int, default=4, help="client threads per side")
    p.add_argument("--actions", type=int, default=300, help="actions per client per round")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--json", dest="json_path", help="also write the figures to this file")
    return p.parse_args(argv)


@contextmanager
def worktree(ref: str):
    """`ref` checked out (detached) in a temporary directory, removed afterwards."""
    where = Path(tempfile.mkdtemp(prefix="cardroom-ref-")) / "tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(where), ref],
                   check=True)  # fmt: skip
    try:
        yield where
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(where)],
                       check=False)  # fmt: skip
        shutil.rmtree(where.parent, ignore_errors=True)


def api_processes(port: int) -> list[psutil.Process]:
    """The gunicorn master serving `port` and everything under it (workers, stream processes)."""
    for proc in psutil.process_iter():
        try:
            cmdline = proc.cmdline()
        except psutil.Error:
            continue
        if "api.server.wsgi:app" in cmdline and any(arg.endswith(f":{port}") for arg in cmdline):
            parent = proc.parent()
            if parent is None or "api.server.wsgi:app" not in parent.cmdline():
                return [proc, *proc.children(recursive=True)]
    raise SystemExit(f"no API serves port {port}")


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def play_round(sides: dict[str, str], args: argparse.Namespace, round_no: int) -> dict[str, float]:
    """Both sides at once; each side's CPU milliseconds per action."""
    players = {
        side: [
            TablePlayer(Api(url, args.game), random.Random(f"{round_no}:{side}:{i}"), "first")
            for i in range(args.clients)
        ]  # fmt: skip
        for side, url in sides.items()
    }
    for side_players in players.values():
        for player in side_players:
            for _ in range(WARMUP):
                player.act(Tally())
    procs = {side: api_processes(port_of(url)) for side, url in sides.items()}
    tallies = {side: [Tally() for _ in range(args.clients)] for side in sides}
    before = {side: server_procs.cpu_seconds(procs[side]) for side in sides}
    threads = [
        threading.Thread(target=lambda p=p, t=t: [p.act(t) for _ in range(args.actions)])
        for side in sides for p, t in zip(players[side], tallies[side], strict=True)
    ]  # fmt: skip

    def render(elapsed: float) -> str:
        done = {side: sum(len(t.posts) for t in tallies[side]) for side in sides}
        return f"[round {round_no}] actions " + ", ".join(f"{s} {n}" for s, n in done.items())

    with Progress(render):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    used = {}
    for side in sides:
        actions = sum(len(t.posts) for t in tallies[side])
        cpu = server_procs.cpu_used(before[side], server_procs.cpu_seconds(procs[side]))
        used[side] = round(1000 * cpu / max(1, actions), 3)
        for player in players[side]:
            player.api.close()
    return used


def bench(args: argparse.Namespace) -> dict[str, Any]:
    rounds: list[dict[str, float]] = []
    with worktree(args.ref) as tree, started_service() as service:
        with second_api(service, {}, repo=tree) as ref_url:
            sides = {"this": service.url, args.ref: ref_url}
            for round_no in range(1, args.rounds + 1):
                used = play_round(sides, args, round_no)
                used["ratio"] = round(used["this"] / used[args.ref], 3)
                rounds.append(used)
                line = f"this checkout {used['this']} ms, {args.ref} {used[args.ref]} ms"
                print(f"round {round_no}: {line} per action: {used['ratio']}", file=sys.stderr)
    ratios = [r["ratio"] for r in rounds]
    return {
        "ref": args.ref,
        "game": args.game,
        "clients_per_side": args.clients,
        "actions_per_client": args.actions,
        "rounds": rounds,
        "ratio_median": median(ratios),
        "ratio_range": [min(ratios), max(ratios)],
        "this_ms_median": median([r["this"] for r in rounds]),
        "ref_ms_median": median([r[args.ref] for r in rounds]),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = bench(args)
    print(f"API CPU per action, this checkout / {report['ref']} ({report['game']}):"
          f" median {report['ratio_median']} over {len(report['rounds'])} rounds"
          f" (range {report['ratio_range'][0]}-{report['ratio_range'][1]});"
          f" {report['this_ms_median']} ms against {report['ref_ms_median']} ms")  # fmt: skip
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(report, indent=2) + "\n")
        print(f"figures written to {args.json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
