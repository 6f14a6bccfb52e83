"""What the action path asks of Postgres. A client plays a turn as a GET of the game and a POST
of its action; each statement is a round trip to the database and CPU on both sides, so the
hot path keeps them few: the token's seat is read with the game's version (GET) or with the
game's lock (POST), never by a statement of its own. A stream's handshake reads no table."""

from __future__ import annotations

import random
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager

import psycopg
import pytest
from flask.testing import FlaskClient
from psycopg.waiting import Ready

from tests.api.play import action_from, auth, create_game, humans, tokens_of


@contextmanager
def round_trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the round trips to Postgres that serving a request makes while open: each wait on
    a connection that went on only once the server's answer could be read (a statement, BEGIN,
    COMMIT, or a pipeline of them). Sending without waiting for an answer (a statement queued
    in a pipeline) does not count, nor does a no-op such as committing an idle connection, nor
    other threads' waits."""
    count = [0]
    wait = psycopg.Connection.wait
    serving = threading.get_ident()  # the test client serves the request in this thread

    def counting(self, gen, *args, **kwargs):
        if threading.get_ident() != serving:  # e.g. the stream notifier's LISTEN connection
            return wait(self, gen, *args, **kwargs)
        return wait(self, _counted(gen, count), *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(psycopg.Connection, "wait", counting)
        yield count


def _counted(gen: Generator, count: list[int]) -> Generator:
    """`gen`, passed through, adding one to `count` if it is ever resumed because the server's
    answer can be read."""
    answered = False
    try:
        item = next(gen)
    except StopIteration as done:
        return done.value
    while True:
        try:
            try:
                ready = yield item
            except BaseException as error:  # handed on to the generator, as `yield from` does
                item = gen.throw(error)
            else:
                if not answered and ready is not None and ready & Ready.R:
                    answered = True
                    count[0] += 1
                item = gen.send(ready)
        except StopIteration as done:
            return done.value


def a_four_human_game(client) -> tuple[str, dict[int, str], dict]:
    created = create_game(client, "trick_and_snipers", humans(4))
    game_id, tokens = created["id"], tokens_of(created)
    view = client.get(f"/games/{game_id}", headers=auth(tokens[0])).get_json()
    return game_id, tokens, view


def test_reading_a_game_this_process_just_wrote_is_one_statement(client, monkeypatch):
    game_id, tokens, _ = a_four_human_game(client)
    with round_trips(monkeypatch) as count:
        response = client.get(f"/games/{game_id}", headers=auth(tokens[2]))
    assert response.status_code == 200 and response.get_json()["you"]["seat"] == 2
    assert count[0] == 1


def test_a_timed_game_is_read_with_its_deadlines_and_an_unchanged_one_without(client, monkeypatch):
    # Given a timed table of four humans in play
    created = create_game(client, "trick_and_snipers", humans(4), {"turn_seconds": 60})
    game_id, token = created["id"], tokens_of(created)[0]
    # When a seat reads it: the version with the token's seat, then the turns' deadlines
    with round_trips(monkeypatch) as count:
        shown = client.get(f"/games/{game_id}", headers=auth(token))
    assert "deadline" in shown.get_json()["seats"][0] and count[0] == 2
    # And when it reads it again at the version it holds: no deadline is read for a 304
    again = {**auth(token), "If-None-Match": shown.headers["ETag"]}
    with round_trips(monkeypatch) as count:
        unchanged = client.get(f"/games/{game_id}", headers=again)
    assert unchanged.status_code == 304 and count[0] == 1


def test_creating_a_table_inserts_its_stream_with_begin_and_all_its_tokens_at_once(
    client, monkeypatch
):
    # When a table of four humans is created (dealt at once: no seat is open)
    with round_trips(monkeypatch) as count:
        created = create_game(client, "trick_and_snipers", humans(4))
    # Then it took five round trips: BEGIN with the new stream row, the dealt events, the
    # stream's status, the four seats' tokens, COMMIT
    assert count[0] == 5
    tokens = tokens_of(created)
    for seat in range(4):  # and every token it wrote acts for its own seat
        view = client.get(f"/games/{created['id']}", headers=auth(tokens[seat])).get_json()
        assert view["you"]["seat"] == seat


def test_an_action_is_the_lock_with_its_begin_then_the_append_with_its_commit(client, monkeypatch):
    game_id, tokens, view = a_four_human_game(client)
    action = action_from(view["you"]["legal_actions"][0], random.Random(1))
    with round_trips(monkeypatch) as count:
        response = client.post(f"/games/{game_id}/actions", json=action, headers=auth(tokens[0]))
    assert response.status_code == 201
    assert count[0] == 2  # BEGIN with the lock, then the append with COMMIT


def test_a_wrong_token_is_refused_with_the_lock_it_took_and_changes_nothing(client, monkeypatch):
    game_id, tokens, view = a_four_human_game(client)
    other, other_tokens, _ = a_four_human_game(client)
    with round_trips(monkeypatch) as count:
        response = client.post(
            f"/games/{game_id}/actions", json={"type": "x"}, headers=auth(other_tokens[0])
        )
    assert response.status_code == 401
    assert count[0] == 2  # BEGIN and the lock with the token's seat, ROLLBACK
    after = client.get(f"/games/{game_id}", headers=auth(tokens[0])).get_json()
    assert after["version"] == view["version"]


def test_opening_a_stream_is_one_statement_for_a_seat_and_for_a_spectator(app, client, monkeypatch):
    # Given a game in play: thousands of its streams may open at once (a table starting)
    game_id, tokens, _ = a_four_human_game(client)
    url = f"/games/{game_id}/events/stream"
    streams = FlaskClient(app, app.response_class)  # the spec's check would read on forever
    # When a seat and a spectator open their streams
    with round_trips(monkeypatch) as seat_count:
        seat = streams.get(f"{url}?access_token={tokens[1]}")
    with round_trips(monkeypatch) as spectator_count:
        spectator = streams.get(url)
    # Then each handshake finds the game and the token's seat in one statement, reading no table
    for response in (seat, spectator):
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        response.close()  # gives its place back
    assert (seat_count[0], spectator_count[0]) == (1, 1)
