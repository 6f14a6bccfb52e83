from __future__ import annotations

from uuid import uuid4

from events import outbox
from events.outbox import AutomaticWork, BotTurn
from events.postgres import outbox as outbox_table


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
    """Marks everything earlier tests left pending as enqueued, so each test sees its own."""
    outbox_table.mark_enqueued(conn, [item.id for item in outbox_table.claim_pending(conn, 10_000)])
    conn.commit()


def test_claim_pending_skips_rows_another_relay_has_locked(connect):
    first, second = connect(), connect()
    drain(first)
    game = uuid4()
    for version in range(1, 5):
        outbox_table.add(first, game, version, BotTurn(0))
    first.commit()
    mine = outbox_table.claim_pending(first, limit=2)
    theirs = outbox_table.claim_pending(second, limit=10)
    assert [i.version for i in mine] == [1, 2]
    assert [i.version for i in theirs] == [3, 4]
    assert mine[0].job_id == f"{game}_1_bot-0"
    outbox_table.mark_enqueued(first, [i.id for i in mine])
    first.commit()
    second.rollback()  # the relay crashed before enqueueing: its rows come back
    assert [i.version for i in outbox_table.claim_pending(second, limit=10)] == [3, 4]


def test_stale_lists_work_enqueued_but_not_done(connect):
    conn = connect()
    drain(conn)
    game = uuid4()
    outbox_table.add(conn, game, 1, BotTurn(2))
    outbox_table.add(conn, game, 2, AutomaticWork("scoring"))
    conn.commit()
    outbox_table.mark_enqueued(conn, [i.id for i in outbox_table.claim_pending(conn)])
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
