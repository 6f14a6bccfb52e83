"""The chaos scenarios: real processes (gunicorn, `python -m workers`, Redis, Postgres) play
whole games through the HTTP API while one of them is killed or restarted. Each returns its
figures (how long until every game progressed again) and raises AssertionError listing what
went wrong. Used by tests/chaos/test_chaos.py and tools/chaos.py."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from testing.chaos.checks import problems_of_games
from testing.chaos.cluster import Api, Cluster
from testing.chaos.players import Played, Player, Traffic
from testing.chaos.progress import Progress
from testing.chaos.servers import Postgres, RedisServer
from testing.chaos.streams import Follower

HUMAN = {"kind": "human", "name": "chaos"}
BASIC = {"kind": "bot", "level": "basic"}
RANDOM = {"kind": "bot", "level": "random"}
TABLES = [  # St Patrick plays several rounds, each scored by a job; the all-bot table most often
    ("st_patrick", [HUMAN, BASIC, RANDOM]),
    ("st_patrick", [BASIC, BASIC, RANDOM]),
    ("st_patrick", [BASIC, RANDOM, HUMAN]),
    ("trick_and_snipers", [HUMAN, BASIC, BASIC]),
    ("trick_and_snipers", [RANDOM, HUMAN, BASIC]),
]
GAMES_DEADLINE = 75.0  # every game must have ended this long after the fault was repaired


@dataclass
class Figures:
    scenario: str
    outage_s: float  # from the fault until the service was repaired (a process started again)
    recovery_s: float  # from the fault until every game in play had progressed again
    games_waited_for: int
    games: int = 0
    responses: int = 0
    unavailable_503: int = 0
    refused_connections: int = 0
    attempts: int = 0  # kills it took to land one in the middle of a job (kill scenarios)
    streams_resumed: int = 0  # spectators' streams that ended early and were opened again

    def line(self) -> str:
        return (
            f"{self.scenario}: recovered {self.recovery_s:.2f} s after the fault "
            f"(outage {self.outage_s:.2f} s; {self.games_waited_for} games in play waited), "
            f"{self.games} games, {self.responses} responses, {self.unavailable_503} x 503, "
            f"{self.refused_connections} requests unanswered, {self.streams_resumed} streams "
            f"resumed" + (f", {self.attempts} kill(s) to land one mid-job" if self.attempts else "")
        )


class TimedOut(BaseException):
    """A scenario ran past its hard limit (BaseException: no `except Exception` swallows it)."""


@contextmanager
def hard_timeout(seconds: float) -> Iterator[None]:
    """Interrupts the main thread after `seconds`, so cleanup still kills every process."""

    def expire(_signum: int, _frame: object) -> None:
        raise TimedOut(f"the scenario ran over its {seconds:.0f} s limit")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Play:
    """A cluster, its clients and the progress watcher; `finish` checks everything."""

    def __init__(self, cluster: Cluster, tables: list[tuple[str, list[dict]]] = TABLES) -> None:
        self.cluster = cluster
        self.traffic = Traffic()
        self.no_new_games = threading.Event()
        self.progress = Progress(cluster.database_url)
        self.deadline = time.monotonic() + 100  # the clients' own: they give up after it
        urls = [api.url for api in cluster.apis]
        self.players = [
            Player(urls, kind, seats, self.traffic, self.no_new_games, self.deadline, seed)
            for seed, (kind, seats) in enumerate(tables)
        ]
        self.followers = [Follower(player, self.traffic) for player in self.players]
        self.apis_up: list[tuple[Api, set[int]]] = []  # with their gunicorn workers' pids
        self.workers_up: list[subprocess.Popen[bytes]] = []
        cluster.cleanups.append(self.halt)  # a failed scenario leaves no thread behind

    def halt(self) -> None:
        for player in self.players:
            player.halted.set()
        self.progress.stopping.set()

    def start(self) -> None:
        self.progress.start()
        for thread in [*self.players, *self.followers]:
            thread.start()
        # Faults strike once every table has a game under way, its bots moving (workers up).
        self.wait(lambda: all(p.games for p in self.players), 30, "every table to start a game")
        self.wait(self._under_way, 30, "every table's game to get going")

    def _under_way(self, moves: int = 10) -> bool:
        latest = self.progress.latest()
        return all(latest.get(p.games[0].game_id, (0, ""))[0] >= moves for p in self.players)

    def clients_ok(self) -> None:
        errors = [t.error for t in [*self.players, *self.followers] if t.error is not None]
        if errors:
            raise AssertionError(f"a client failed: {errors[0]!r}\n{self.cluster.log_tails()}")

    def wait(self, check: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            self.clients_ok()
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}\n{self.cluster.log_tails()}")
            time.sleep(0.05)

    def remember_survivors(self, apis: list[Api], workers: list[subprocess.Popen[bytes]]) -> None:
        """The processes the fault must not disturb: at the end, the same pids, still serving."""
        self.apis_up += [(api, api.worker_pids()) for api in apis]
        self.workers_up += workers

    def recovered(self, name: str, fault_at: float, restored_at: float, **extra) -> Figures:
        at, waited = self.progress.wait_for_recovery(restored_at, 60, self.clients_ok)
        if waited == 0:
            raise AssertionError(f"{name}: no game was in play after the fault")
        return Figures(name, restored_at - fault_at, at - fault_at, waited, **extra)

    def finish(self, figures: list[Figures]) -> None:
        self.no_new_games.set()
        end = time.monotonic() + GAMES_DEADLINE
        threads = [*self.players, *self.followers]
        for thread in threads:
            thread.join(max(0.1, end - time.monotonic()))
        self.progress.stop()
        problems = [f"{t.name}: {t.error!r}" for t in threads if t.error is not None]
        problems += [f"{t.name} still running" for t in threads if t.is_alive()]
        games: list[Played] = [g for p in self.players for g in p.games]
        streamed = {g: got for f in self.followers for g, got in f.received.items()}
        api = self.cluster.apis[-1].url
        problems += problems_of_games(self.cluster.database_url, api, games, streamed)
        bad = self.traffic.unexpected()
        if bad:
            problems.append(f"{len(bad)} unexpected responses, e.g. {bad[:3]}")
        for worker in self.workers_up:
            if worker.poll() is not None:
                problems.append(f"worker {worker.pid} exited with {worker.returncode}")
        for api, pids in self.apis_up:
            if api.proc.poll() is not None:
                problems.append(f"API {api.url} exited with {api.proc.returncode}")
            elif api.worker_pids() != pids:
                problems.append(
                    f"API {api.url}: gunicorn workers {pids} became {api.worker_pids()}"
                )
            elif not _serving(api.url):
                problems.append(f"API {api.url} no longer serves")
        for f in figures:
            f.games = len(games)
            f.responses = len(self.traffic.seen)
            f.unavailable_503 = self.traffic.count(503)
            f.refused_connections = self.traffic.refused_connections
            f.streams_resumed = sum(follower.resumed for follower in self.followers)
        if problems:
            raise AssertionError("\n".join(problems) + "\n" + self.cluster.log_tails())


def _serving(url: str) -> bool:
    import requests

    try:
        return requests.get(f"{url}/healthz", timeout=5).ok
    except requests.RequestException:
        return False


@contextmanager
def cluster_on(database_url: str, workdir: Path, apis: int, workers: int) -> Iterator[Cluster]:
    """The scenario's own Redis, APIs and workers on database_url (migrated, empty)."""
    redis_server = RedisServer(workdir / "redis")
    redis_server.start()
    cluster = Cluster(database_url, redis_server.url, workdir, redis_server)
    try:
        for _ in range(apis):
            cluster.start_api()
        for _ in range(workers):
            cluster.start_worker()
        yield cluster
    finally:
        cluster.stop()
        redis_server.kill()


# 1. kill -9 a worker in the middle of a job, then start a new one ---------------------------


def _started_jobs(connection: redis.Redis) -> set[str]:
    """Job ids in RQ's started registries (the job is being worked on) of both queues."""
    ids: set[str] = set()
    for queue in ("chaos-humans", "chaos"):
        for member in connection.zrange(f"rq:wip:{queue}", 0, -1):
            ids.add(member.decode().split(":")[0])
    return ids


def kill_worker_mid_job(
    play: Play, kind: Callable[[str], bool], name: str, attempts: int = 10
) -> Figures:
    """Kills the worker the moment RQ shows it working on a job of that kind; retried (with a
    new worker each time) until the job was still registered as started after the kill, that is
    the kill landed before the job finished."""
    cluster = play.cluster
    connection = redis.Redis.from_url(cluster.redis_url)
    try:
        for attempt in range(1, attempts + 1):
            worker = cluster.workers[-1]
            deadline = time.monotonic() + 30
            job = None
            while job is None:
                if time.monotonic() > deadline:
                    raise AssertionError(f"{name}: no such job started within 30 s")
                job = next((j for j in _started_jobs(connection) if kind(j)), None)
            os.killpg(worker.pid, signal.SIGKILL)
            fault_at = time.monotonic()
            worker.wait(10)
            landed = job in _started_jobs(connection)
            cluster.start_worker()
            restored_at = time.monotonic()
            if landed:
                figures = play.recovered(name, fault_at, restored_at, attempts=attempt)
                return figures
            time.sleep(0.5)
        raise AssertionError(f"{name}: no kill landed in the middle of a job in {attempts} tries")
    finally:
        connection.close()


def scoring(job_id: str) -> bool:
    return job_id.endswith("_scoring")


def worker_killed_mid_job(database_url: str, workdir: Path) -> list[Figures]:
    with cluster_on(database_url, workdir, apis=1, workers=1) as cluster:
        play = Play(cluster)
        play.remember_survivors(cluster.apis, [])
        play.start()
        figures = [
            kill_worker_mid_job(play, lambda job: "_bot-" in job, "worker killed in a bot move"),
            kill_worker_mid_job(
                play, lambda job: job.endswith("_scoring"), "worker killed in scoring"
            ),
        ]
        play.remember_survivors([], [cluster.workers[-1]])
        play.finish(figures)
        return figures


# 2. Redis restarted: its queues are lost -----------------------------------------------------


def redis_restarted(database_url: str, workdir: Path, down_seconds: float = 1.0) -> list[Figures]:
    with cluster_on(database_url, workdir, apis=1, workers=1) as cluster:
        play = Play(cluster)
        play.remember_survivors(cluster.apis, cluster.workers)
        play.start()
        server = cluster.redis_server
        assert server is not None
        server.kill()
        fault_at = time.monotonic()
        time.sleep(down_seconds)
        server.start()
        restored_at = time.monotonic()
        figures = [play.recovered("Redis restarted (queues lost)", fault_at, restored_at)]
        play.finish(figures)
        return figures


# 3. Postgres restarted -----------------------------------------------------------------------


def postgres_restarted(workdir: Path, down_seconds: float = 1.0) -> list[Figures]:
    from events.postgres.migrate import apply_migrations

    postgres = Postgres(workdir / "postgres")
    database_url = postgres.start()
    try:
        apply_migrations(database_url)
        with cluster_on(database_url, workdir, apis=1, workers=1) as cluster:
            play = Play(cluster)
            play.remember_survivors(cluster.apis, cluster.workers)
            play.start()
            postgres.stop()
            fault_at = time.monotonic()
            time.sleep(down_seconds)
            postgres.start()
            restored_at = time.monotonic()
            figures = [play.recovered("Postgres restarted", fault_at, restored_at)]
            play.finish(figures)
            return figures
    finally:
        postgres.stop()


# 4. Two APIs and two workers on one database; one API killed --------------------------------


def two_apis_two_workers(database_url: str, workdir: Path) -> list[Figures]:
    """Clients spread over two gunicorn masters, two full workers (relay, sweeper and timers
    each) share the work; midway the first API is killed and its clients move to the other."""
    with cluster_on(database_url, workdir, apis=2, workers=2) as cluster:
        play = Play(cluster)
        first, second = cluster.apis
        play.remember_survivors([second], cluster.workers)
        play.start()
        cluster.kill(first.proc)
        fault_at = time.monotonic()
        figures = [play.recovered("two APIs, two workers: one API killed", fault_at, fault_at)]
        play.finish(figures)
        return figures
