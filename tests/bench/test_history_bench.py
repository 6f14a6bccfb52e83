"""bench/history.py: the games it loads are real games whose audits pass, its plan is the same
on every run (so a load resumes), and a history loaded through the store's write path holds
together on a real Postgres."""

from __future__ import annotations

from collections import defaultdict
from uuid import UUID

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg.conninfo import conninfo_to_dict

from bench.history import BENCHMARK, Plan, by_seat, load, play, ratios, signer_from
from bench.support.sides import alternate
from domain.games import GAME_TYPES
from domain.tables.table import seats_to_act
from events.audit.report import audit_report
from events.audit.signing import HeadSigner
from events.audit.verify import check_database
from events.memory import MemoryStore
from events.postgres.audit_cache import all_passed
from events.postgres.audit_reads import GameLog, StreamRow, read_game_log

PLAYERS = [UUID(int=n, version=4) for n in range(1, 6)]
SIGNER = HeadSigner(Ed25519PrivateKey.generate())
SECRET = b"s" * 32


def played(index: int, active: bool = False) -> tuple[UUID, MemoryStore]:
    """Game `index` of a plan of finished games, or of active tables, and its store."""
    spec = Plan(7, games=0 if active else 100, active=100).spec(index, PLAYERS)
    return spec.game_id, play(spec, SECRET, SECRET)


def report_of(game_id: UUID, store: MemoryStore) -> dict:
    """The audit report GET /audit would give for the game as its unit of work left it."""
    head = store.state.heads[game_id]
    signature = SIGNER.sign(str(game_id), head.version, head.hash)
    log = GameLog(
        StreamRow(head.version, head.hash, head.chain_format, signature),
        store.state.events[game_id],
        None,
    )
    return audit_report(str(game_id), log, SIGNER.public_key)


def test_a_history_game_is_the_same_game_whenever_it_is_played():
    (first_id, first), (again_id, again) = played(3), played(3)

    events = [[(e.type, e.data) for e in s.state.events[first_id]] for s in (first, again)]
    assert first_id == again_id and events[0] == events[1]


@pytest.mark.parametrize("index", range(8))
def test_a_played_history_game_passes_every_check_of_its_audit(index):
    game_id, store = played(index)

    report = report_of(game_id, store)

    assert store.state.tables[game_id].status == "finished"
    assert all_passed(report) and report["signature_ok"] is True
    assert report["events_verified"] == len(store.state.events[game_id])


def test_the_games_of_a_history_mix_every_game_type():
    types = {Plan(7, 60, 0).spec(index, PLAYERS).game_type for index in range(60)}

    assert types == set(GAME_TYPES)


def test_an_active_table_stops_at_its_players_turn_with_all_its_work_done():
    game_id, store = next(
        (i, s) for i, s in map(lambda n: played(n, active=True), range(40)) if s.state.events[i][1:]
    )

    table = store.state.tables[game_id]
    assert table.status == "active" and 0 in seats_to_act(table)
    assert store.state.work and all(store.state.work.values())
    report = report_of(game_id, store)
    assert report["chain_ok"] and report["rules_ok"] and report["state_matches"]


def test_a_table_with_an_open_seat_waits_for_it_with_an_invite():
    game_id, store = next(
        (i, s) for i, s in map(lambda n: played(n, active=True), range(60)) if s.state.invites
    )

    assert store.state.tables[game_id].status == "waiting"
    assert list(by_seat(store.state.invites)) == [1]


def test_the_plan_plays_its_games_to_the_end_and_its_active_tables_part_way():
    plan = Plan(seed=7, games=10, active=4)
    players = plan.players()

    specs = [plan.spec(i, players) for i in range(14)]

    assert all(spec.stop_after is None and not spec.open_seat for spec in specs[:10])
    assert all(spec.stop_after is not None for spec in specs[10:])


def test_the_chunks_of_a_plan_hold_every_game_once_and_are_the_same_on_every_run():
    plan = Plan(seed=7, games=250, active=30)

    chunks = plan.chunks()

    assert [i for _, chunk in chunks for i in chunk] == list(range(280))
    assert chunks == plan.chunks() and [n for n, _ in chunks] == [0, 1, 2]
    assert plan.samples(4) == [0, 62, 125, 187]


def test_the_ratios_fail_a_measure_more_than_a_fifth_slower_with_history():
    empty: defaultdict[str, list[float]] = defaultdict(list)
    history: defaultdict[str, list[float]] = defaultdict(list)
    for name in ("action", "waiting", "audit", "audit_kept", "export", "relay", "startup"):
        empty[name].append(0.010)
        history[name].append(0.011)
    history["waiting"].append(0.5)  # the median of (0.011, 0.5) is 0.011: still within the goal
    met = [goal.verdict(ratios(empty, history)) for goal in BENCHMARK.goals]
    history["waiting"].extend([0.5, 0.5])
    slower = {goal.figure: goal.verdict(ratios(empty, history)) for goal in BENCHMARK.goals}

    assert set(met) == {"PASS"}
    assert [name for name, verdict in slower.items() if verdict == "FAIL"] == ["waiting_p50_ratio"]


def test_the_two_stores_take_turns_going_first():
    calls: list[str] = []

    alternate({"empty": 0, "history": 1}, 4, lambda name, side, number: calls.append(name))

    assert calls == ["empty", "history", "history", "empty"] * 2


def test_a_loaded_history_holds_together_and_a_second_run_loads_nothing_twice(
    empty_database_url, capsys
):
    name = conninfo_to_dict(empty_database_url)["dbname"]
    plan = Plan(7, games=4, active=3)

    url, pem = load(empty_database_url, name, plan, workers=1)
    again = load(empty_database_url, name, Plan(7, 4, 3), workers=1)

    with psycopg.connect(url, autocommit=True) as conn:
        done = conn.execute("SELECT chunk FROM bench_history_chunks").fetchall()
        numbers = conn.execute(
            "SELECT bool_and(n.last = p.notices AND n.count = n.last) FROM players p JOIN"
            " (SELECT player_id, max(number) AS last, count(*) AS count FROM notices"
            "  GROUP BY player_id) n ON n.player_id = p.id"
        ).fetchone()
        finished_work = conn.execute(
            "SELECT count(*) FROM outbox JOIN streams USING (game_id) WHERE status = 'finished'"
        ).fetchone()
        sample = plan.spec(plan.samples(1)[0], plan.players()).game_id
        log = read_game_log(conn, sample)
    report = audit_report(str(sample), log, signer_from(pem).public_key)

    assert check_database(url, say=lambda _: None, progress=lambda _: None) == 0
    assert done == [(0,)] and again == (url, pem)
    assert capsys.readouterr().out.endswith(f"{name}: loaded before\n")
    assert numbers == (True,) and finished_work == (0,)
    assert all_passed(report) and report["signature_ok"] is True
