"""A node's death is survived, with the real processes of `make run NODES=2`: several games
played at a steady pace through the front door, one stream per seat; one API node SIGKILLed
mid-game, and later Pushpin. Nothing acknowledged is lost or applied twice, few requests fail
and each failure is a 502/503 problem+json, every stream resumes with nothing lost or repeated,
and the supervisor has the dead process serving again within 20 s."""

from __future__ import annotations

import time

import psutil
import pytest

from embedded.front_door import missing_package
from tests.deploy.launcher import Launched, answers, launched, stream_route_ready
from tests.deploy.steady_play import SteadyTable, Tally, event_log

pytestmark = pytest.mark.skipif(missing_package() is not None, reason=str(missing_package()))
TABLES = 4
RESTARTED_WITHIN = 20.0


@pytest.fixture(scope="module")
def front(private_database_url, redis_url, tmp_path_factory):
    data = tmp_path_factory.mktemp("failover") / "data"
    # Every client is on this machine's one address: no cap on its streams.
    environment = {"STREAM_HEARTBEAT_SECONDS": "1", "MAX_STREAMS_PER_CLIENT": "0"}
    with launched(private_database_url, redis_url, data, **environment) as run:
        yield run


def kill_outright(process: psutil.Process) -> float:
    """SIGKILL to a process and everything it started; the moment it died."""
    family = [process, *process.children(recursive=True)]
    for each in family:
        try:
            each.kill()
        except psutil.NoSuchProcess:
            pass
    return time.monotonic()  # the launcher, their parent, reaps them


def restarted(now: psutil.Process | None, before: psutil.Process) -> bool:
    return now is not None and now.pid != before.pid


def serving_again_after(check, since: float, what: str) -> float:
    deadline = since + RESTARTED_WITHIN + 5
    while time.monotonic() < deadline:
        if check():
            return time.monotonic() - since
        time.sleep(0.1)
    raise AssertionError(f"{what} did not serve again")


def test_a_node_and_then_pushpin_die_mid_game_and_nothing_acknowledged_is_lost(front: Launched):
    tally = Tally()
    tables = [SteadyTable(tally, front.url, seed) for seed in range(TABLES)]
    for table in tables:
        table.start()
    time.sleep(4)  # Given games in play, a stream open on each seat

    # When one API node dies outright, mid-game
    node = front.node(0)
    assert node is not None
    node_died = kill_outright(node)
    node_port = front.node_ports[0]
    node_back = serving_again_after(
        lambda: restarted(front.node(0), node) and answers(f"http://127.0.0.1:{node_port}/readyz"),
        node_died,
        "the node",
    )
    time.sleep(4)

    # And later Pushpin, which holds every stream
    pushpin = front.pushpin()
    assert pushpin is not None
    pushpin_died = kill_outright(pushpin)
    pushpin_back = serving_again_after(
        lambda: restarted(front.pushpin(), pushpin) and stream_route_ready(front.url),
        pushpin_died,
        "Pushpin",
    )
    time.sleep(4)
    for table in tables:
        table.stop.set()
    for table in tables:
        table.join(timeout=60)
        assert table.error is None, table.error

    # Then the dead processes were serving again within 20 s
    assert node_back < RESTARTED_WITHIN
    assert pushpin_back < RESTARTED_WITHIN
    # And every action a client was told succeeded is in the log exactly once
    for table in tables:
        for game, acknowledged in table.games.items():
            log = event_log(front.url, game)
            covered = list(range(1, table.created_versions[game] + 1))
            for action in acknowledged:
                assert [log[v - 1]["type"] for v in action.versions] == action.types
                covered += action.versions
            assert covered == list(range(1, len(log) + 1))  # no event twice, none unasked
    # And at most 1 % of requests failed, each a 502/503 problem+json
    assert set(tally.failed) <= {"502 problem", "503 problem"}, tally.failed
    assert tally.failures <= 0.01 * tally.sent, (tally.failures, tally.sent)
    # And every stream resumed with Last-Event-ID: nothing lost, nothing repeated
    for table in tables:
        for game, streams in table.streams.items():
            final = len(event_log(front.url, game))
            for stream in streams:
                stream.join(timeout=30)
                assert stream.ids == list(range(1, final + 1))
    played = sum(len(actions) for table in tables for actions in table.games.values())
    assert played > 50, "too few actions to see the deaths"
    print(
        f"\n{played} actions, {tally.sent} requests, {tally.failures} failed {dict(tally.failed)}; "
        f"node back in {node_back:.1f} s, Pushpin in {pushpin_back:.1f} s"
    )
