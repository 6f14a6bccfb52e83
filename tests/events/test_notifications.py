"""The stream notifier's LISTEN connection (events/postgres/notifications.py) when its database
goes away: dropped on purpose, as every test database is at its end, it stops listening
without a word above debug; a server it cannot reach is still a warning."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable

from events.postgres.notifications import GameNotifier
from testing.databases import temporary_database
from tests.conftest import SESSION_ID, _required_env


def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_dropping_its_database_ends_the_listener_without_an_error_in_the_log(caplog):
    caplog.set_level(logging.DEBUG, logger="cardroom.notifications")
    name = f"cardroom_test_{SESSION_ID}_{uuid.uuid4().hex[:6]}"
    with temporary_database(_required_env("DATABASE_URL"), name, migrate=False) as url:
        notifier = GameNotifier(url)
        subscription = notifier.subscribe(uuid.uuid4())
        eventually(notifier.listening.is_set)
        thread = notifier._thread
    # The database is dropped (WITH FORCE: its connections are ended) while the listener runs
    assert thread is not None
    thread.join(timeout=10)
    assert not thread.is_alive() and not notifier.listening.is_set()
    assert subscription.wait(0)  # its waiter was woken to poll on its own
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert loud == [], [r.getMessage() for r in loud]
    assert "its database is gone" in caplog.text
    notifier.close()


def test_a_server_it_cannot_reach_is_still_a_warning(caplog):
    notifier = GameNotifier("postgresql://postgres@127.0.0.1:1/none")  # nothing on port 1
    try:
        with notifier.subscribe(uuid.uuid4()):
            eventually(lambda: "listening for game_events failed" in caplog.text)
        assert any(r.levelno == logging.WARNING for r in caplog.records)
    finally:
        notifier.close()
