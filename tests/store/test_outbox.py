from __future__ import annotations

from uuid import uuid4

from events import outbox
from events.outbox import AutomaticWork, BotTurn
from events.postgres import fair_work, store
from events.postgres import outbox as outbox_table


def new_game(conn, creator: str = "") -> object:
    game = uuid4()
    store.create_stream(conn, game, "trick_and_snipers", creator=creator)
    return game


def test_adding_the_same_work_twice_keeps_one_row(connect):
    conn = connect()
    game = uuid4()
    assert outbox_table.add(conn, game, 3, BotTurn(1)) is True
    assert outbox_table.add(conn, game, 3, BotTurn(1)) is False
    assert outbox_table.add(conn, game, 3, AutomaticWork("scoring")) is True
    conn.commit()
    rows = conn.execute("SELECT kind FROM outbox WHERE game_id = %s ORDER BY kind", (game,))
    assert rows.fetchall() == [("bot-1",), ("scoring",)]


def drain(conn) -> None:
    """Marks everything earlier tests left undone as done, so each test sees its own."""
    conn.execute("UPDATE outbox SET done_at = now() WHERE done_at IS NULL")
    conn.commit()


def test_a_claim_skips_rows_another_relay_has_locked(connect):
    first, second = connect(), connect()
    drain(first)
    game = new_game(first)
    for version in range(1, 5):
        outbox_table.add(first, game, version, BotTurn(0))
    first.commit()
    mine = fair_work.claim_fairly(first, limit=2)
    theirs = fair_work.claim_fairly(second, limit=10)
    assert [i.version for i in mine] == [1, 2]
    assert [i.version for i in theirs] == [3, 4]
    assert mine[0].job_id == f"{game}_1_bot-0"
    outbox_table.mark_enqueued(first, [i.id for i in mine])
    first.commit()
    second.rollback()  # the relay crashed before enqueueing: its rows come back
    assert [i.version for i in fair_work.claim_fairly(second, limit=10)] == [3, 4]


def test_stale_lists_work_enqueued_but_not_done(connect):
    conn = connect()
    drain(conn)
    game = new_game(conn)
    outbox_table.add(conn, game, 1, BotTurn(2))
    outbox_table.add(conn, game, 2, AutomaticWork("scoring"))
    conn.commit()
    outbox_table.mark_enqueued(conn, [i.id for i in fair_work.claim_fairly(conn, 100)])
    conn.commit()
    conn.execute("UPDATE outbox SET enqueued_at = enqueued_at - interval '1 minute'")
    assert outbox_table.mark_done(conn, game, 1, BotTurn(2)) is True
    assert outbox_table.mark_done(conn, game, 1, BotTurn(2)) is False
    conn.commit()
    stale = [i for i in outbox_table.stale(conn, older_than_seconds=5) if i.game_id == game]
    assert [(i.version, i.kind) for i in stale] == [(2, "scoring")]
    assert [i for i in outbox_table.stale(conn, older_than_seconds=3600) if i.game_id == game] == []


def test_work_is_written_and_read_back_as_its_type():
    for work in (BotTurn(0), BotTurn(4), AutomaticWork("scoring")):
        assert outbox.decode(outbox.encode(work)) == work
    assert outbox.encode(BotTurn(3)) == "bot-3"  # part of RQ job ids: no colons


def queue_turns(conn, game, count: int, urgent: bool = False) -> None:
    for version in range(1, count + 1):
        outbox_table.add(conn, game, version, BotTurn(0), urgent)


def test_work_is_claimed_in_turns_between_the_creators_of_the_tables(connect):
    # Given a creator who queued forty turns, and then another who queued one
    conn = connect()
    drain(conn)
    flooder = [new_game(conn, "address-flood") for _ in range(4)]
    for game in flooder:
        queue_turns(conn, game, 10, urgent=True)
    player = new_game(conn, "address-player")
    queue_turns(conn, player, 1)
    conn.commit()
    # When the relay claims two places
    claimed = fair_work.claim_fairly(conn, 2)
    # Then the player's turn is one of them, though it came last and is not urgent
    assert player in {item.game_id for item in claimed}
    assert len({item.game_id for item in claimed} & set(flooder)) == 1
    conn.rollback()


def test_a_creator_with_jobs_running_waits_for_one_with_none(connect):
    conn = connect()
    drain(conn)
    busy, idle = new_game(conn, "address-busy"), new_game(conn, "address-idle")
    queue_turns(conn, busy, 3)
    conn.commit()
    outbox_table.mark_enqueued(conn, [i.id for i in fair_work.claim_fairly(conn, 2)])
    queue_turns(conn, idle, 1)
    conn.commit()
    # The busy creator has two jobs running: the idle one's turn comes before its third
    assert [i.game_id for i in fair_work.claim_fairly(conn, 1)] == [idle]
    assert fair_work.in_flight(conn) == 2
    conn.rollback()


def test_among_creators_at_the_same_turn_the_one_that_used_the_workers_least_goes_first(connect):
    conn = connect()
    drain(conn)
    heavy, light = new_game(conn, "address-heavy"), new_game(conn, "address-light")
    fair_work.job_finished(conn, heavy, 10.8)  # a five-seat strong-bot table's worth
    fair_work.job_finished(conn, light, 0.2)
    queue_turns(conn, heavy, 1)
    queue_turns(conn, light, 1)
    conn.commit()
    assert [i.game_id for i in fair_work.claim_fairly(conn, 2)] == [light, heavy]
    assert 10.0 < fair_work.usage(conn, "address-heavy") <= 10.8
    conn.rollback()
