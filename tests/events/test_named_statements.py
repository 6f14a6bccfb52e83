"""Statements sent with others in one message, prepared once per connection, on real Postgres:
what a connection holds survives ROLLBACK, a failed message is recovered from, and a connection
on which psycopg prepares statements itself gets none."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.pq import TransactionStatus

from events.postgres import named_statements
from events.postgres.db import make_pool


def divide(by: int) -> named_statements.Statement:
    return "SELECT 12 / %s::int", (by,)


@pytest.fixture()
def conn(database_url):
    """A connection of the app's pool (psycopg prepares nothing on it)."""
    pool = make_pool(database_url, max_size=1)
    with pool.connection() as connection:
        yield connection
    pool.close()


def held_by(conn: psycopg.Connection) -> list[str]:
    rows = conn.execute("SELECT name FROM pg_prepared_statements").fetchall()
    return sorted(row["name"] for row in rows)


def test_a_statement_is_prepared_the_first_time_and_run_by_name_after(conn):
    # Given a statement a connection has not run, when it runs three times
    answers = [named_statements.run(conn, "", divide(n)).fetchone() for n in (1, 2, 3)]
    # then each run answers for its own parameters, from the one statement it prepared
    assert answers == [(12,), (6,), (4,)]
    assert held_by(conn) == [named_statements.name_of(divide(1)[0])]


def test_what_a_connection_holds_survives_a_rollback(conn):
    # Given a statement prepared inside a transaction that is rolled back
    named_statements.run(conn, "BEGIN", divide(1))
    conn.execute("ROLLBACK")
    # when it runs again, it runs by name
    assert named_statements.run(conn, "", divide(4)).fetchone() == (3,)
    assert held_by(conn) == [named_statements.name_of(divide(1)[0])]


def test_begin_goes_before_the_statement_and_commit_after_it(conn):
    # When a statement runs with BEGIN before it, its transaction stays open
    cursor = named_statements.run(conn, "BEGIN", divide(2))
    assert cursor.fetchone() == (6,)
    assert conn.info.transaction_status == TransactionStatus.INTRANS
    # and when the next runs with COMMIT after it, the transaction is over
    assert named_statements.run(conn, "", divide(3), "COMMIT").fetchone() == (4,)
    assert conn.info.transaction_status == TransactionStatus.IDLE


def test_a_failing_statement_skips_the_commit_after_it(conn):
    # Given an open transaction, when a statement sent with COMMIT fails
    conn.execute("BEGIN")
    with pytest.raises(psycopg.errors.DivisionByZero):
        named_statements.run(conn, "", divide(0), "COMMIT")
    # then the COMMIT did not run: the transaction is aborted, not ended
    assert conn.info.transaction_status == TransactionStatus.INERROR
    conn.execute("ROLLBACK")


@pytest.mark.parametrize("first", [0, 1], ids=["failed-first-run", "ran-before"])
def test_after_a_failed_message_the_statement_runs_again(conn, first):
    # Given a statement whose first message failed (its PREPARE may or may not have run),
    # or that ran before a message of it failed
    if first:
        named_statements.run(conn, "", divide(first))
    with pytest.raises(psycopg.errors.DivisionByZero):
        named_statements.run(conn, "", divide(0))
    # when it runs again, it answers: it neither prepares twice nor runs what is not there
    assert named_statements.run(conn, "", divide(6)).fetchone() == (2,)


def test_a_statement_deallocated_behind_its_back_fails_once_then_runs(conn):
    # Given a prepared statement that something else deallocated
    named_statements.run(conn, "", divide(1))
    conn.execute("DEALLOCATE ALL")
    # when it runs, that run fails; the next one prepares it again
    with pytest.raises(psycopg.errors.InvalidSqlStatementName):
        named_statements.run(conn, "", divide(2))
    assert named_statements.run(conn, "", divide(2)).fetchone() == (6,)


def test_a_connection_on_which_psycopg_prepares_gets_the_statement_as_it_is(database_url):
    # Given a connection with psycopg's own prepared statements (which it may deallocate)
    with psycopg.connect(database_url, autocommit=True) as conn:
        # when a statement runs on it, with BEGIN before it
        assert named_statements.run(conn, "BEGIN", divide(3)).fetchone() == (4,)
        conn.execute("ROLLBACK")
        # then it answers, and nothing was prepared by name
        rows = conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone()
        assert rows == (0,)
