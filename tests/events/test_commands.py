"""The command service's policy on the in-memory unit of work (no database): what is queued
after each commit, idempotent retries, conflicts and refusals that change nothing."""

from __future__ import annotations

import itertools
import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from domain.games import get_game_type
from domain.tables import table as tables
from events.audit.redecide import redecide
from events.automation import Automation
from events.commands import ActionRequest, Commands
from events.committing import Committer
from events.errors import (
    ActionRefused,
    Forbidden,
    GameNotFound,
    IdempotencyKeyReused,
    Unauthorized,
    VersionConflict,
)
from events.folding import fold_events
from events.idempotent_requests import IdempotentRequest
from events.memory import MemoryStore
from events.outbox import AutomaticWork, BotTurn
from events.results import Committed, Replayed
from events.sealing import Sealer

TNS, POKER = get_game_type("trick_and_snipers"), get_game_type("saint_poker")
HUMAN, BOT = tables.SeatInfo(tables.HUMAN, "ada"), tables.SeatInfo(tables.BOT, level="random")


@pytest.fixture()
def store() -> MemoryStore:
    return MemoryStore()


class Service:
    """The client commands and the automation, on one in-memory store."""

    def __init__(self, store: MemoryStore, seed: int) -> None:
        counter = itertools.count()
        committer = Committer(deal_rng=random.Random(seed))
        self.commands = Commands(
            units=store.unit_of_work,
            sealer=Sealer(b"s" * 32),
            committer=committer,
            new_token=lambda: f"token-{next(counter)}",
        )
        self.automation = Automation(store.unit_of_work, committer)

    def __getattr__(self, name: str):
        return getattr(self.commands, name)

    def run_work(self, *args):
        return self.automation.run_work(*args)


def commands_on(store: MemoryStore, seed: int = 1) -> Service:
    return Service(store, seed)


def new_table(commands: Service, *seats: tables.SeatInfo, game=TNS) -> Committed:
    result = commands.create(uuid.uuid4(), game, tables.CreateTable(tuple(seats), {}))
    assert isinstance(result, Committed)
    return result


def first_pass(table: tables.Table, seat: int) -> dict:
    template = table.game_type.legal_actions(table.game, seat)[0]
    return {"type": "pass_cards", "cards": template["cards"][: template["count"]]}


def test_a_full_table_is_dealt_at_once_and_its_bots_turns_are_queued(store):
    created = new_table(commands_on(store), HUMAN, BOT, BOT)
    assert created.table.started and created.secrets.tokens == {0: "token-0"}
    assert [w for _, w in store.pending_work(created.game_id)] == [BotTurn(1), BotTurn(2)]


def test_a_table_of_humans_queues_no_work(store):
    created = new_table(commands_on(store), HUMAN, HUMAN, HUMAN)
    assert store.pending_work(created.game_id) == []


def test_the_same_seeds_deal_the_same_cards_to_the_same_game():
    game_id, seats = uuid.uuid4(), tables.CreateTable((HUMAN, HUMAN, HUMAN), {})
    one = commands_on(MemoryStore(), seed=7).create(game_id, TNS, seats)
    two = commands_on(MemoryStore(), seed=7).create(game_id, TNS, seats)
    assert isinstance(one, Committed) and isinstance(two, Committed)
    assert one.table.seeds == two.table.seeds
    assert one.table.game.hands == two.table.game.hands


def test_what_is_stored_folds_to_what_the_command_returned(store):
    created = new_table(commands_on(store), HUMAN, HUMAN, HUMAN)
    assert fold_events(None, store.state.events[created.game_id]) == created.table


def test_a_retried_action_answers_what_the_first_did_and_appends_nothing(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    action = first_pass(game.table, 0)
    request = IdempotentRequest("action", "key-1", "hash-of-the-body")
    first = commands.act(game.game_id, 0, action, idem=request)
    again = commands.act(game.game_id, 0, action, idem=request)
    assert isinstance(first, Committed) and isinstance(again, Replayed)
    assert (again.before, again.version, again.seat) == (first.before, first.version, 0)
    assert len(store.state.events[game.game_id]) == first.version


def test_an_action_by_token_acts_for_the_seat_the_token_belongs_to(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    token = game.secrets.tokens[1]
    seat, result = commands.act_as(game.game_id, token, ActionRequest(first_pass(game.table, 1)))
    assert seat == 1 and isinstance(result, Committed)
    assert store.state.events[game.game_id][-1].seat == 1


def test_a_token_of_another_game_is_refused_and_appends_nothing(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    other = new_table(commands, HUMAN, HUMAN, HUMAN)
    with pytest.raises(Unauthorized):
        commands.act_as(
            game.game_id, other.secrets.tokens[0], ActionRequest(first_pass(game.table, 0))
        )
    assert len(store.state.events[game.game_id]) == game.version


def test_an_action_by_token_retried_with_its_key_answers_what_the_first_did(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    idem = IdempotentRequest("action", "key-1", "hash-of-the-body")
    request = ActionRequest(first_pass(game.table, 0), idem=idem)
    _, first = commands.act_as(game.game_id, game.secrets.tokens[0], request)
    seat, again = commands.act_as(game.game_id, game.secrets.tokens[0], request)
    assert isinstance(again, Replayed) and (seat, again.version) == (0, first.version)
    assert len(store.state.events[game.game_id]) == first.version


def test_a_key_used_again_with_another_body_is_refused(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    commands.act(game.game_id, 0, first_pass(game.table, 0), idem=IdempotentRequest("a", "k", "1"))
    with pytest.raises(IdempotencyKeyReused):
        commands.act(
            game.game_id, 1, first_pass(game.table, 1), idem=IdempotentRequest("a", "k", "2")
        )


def test_a_retried_create_gives_the_same_tokens_which_are_stored_only_sealed(store):
    commands = commands_on(store)
    request = IdempotentRequest("create", "a-random-uuid-key", "hash")
    command = tables.CreateTable((HUMAN, HUMAN, BOT), {})
    first = commands.create(uuid.uuid4(), TNS, command, request)
    again = commands.create(uuid.uuid4(), TNS, command, request)
    assert isinstance(again, Replayed) and again.game_id == first.game_id
    assert again.secrets.tokens == first.secrets.tokens == {0: "token-0", 1: "token-1"}
    ((key, (_, record)),) = store.state.requests.items()
    assert "a-random-uuid-key" not in str(key) and "token-0" not in str(record)


def test_an_action_at_a_version_the_game_has_left_is_a_conflict_that_appends_nothing(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    commands.act(game.game_id, 0, first_pass(game.table, 0))
    with pytest.raises(VersionConflict) as conflict:
        commands.act(game.game_id, 1, first_pass(game.table, 1), expected_version=game.version)
    assert conflict.value.current_version == game.version + 1
    assert len(store.state.events[game.game_id]) == game.version + 1


def test_an_illegal_action_is_refused_with_the_seats_legal_actions_and_changes_nothing(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    card = game.table.game.hands[0][0].to_json()
    with pytest.raises(ActionRefused) as refused:
        commands.act(game.game_id, 0, {"type": "play_card", "card": card})
    assert refused.value.legal_actions[0]["type"] == "pass_cards"
    assert len(store.state.events[game.game_id]) == game.version


def test_work_runs_once_at_its_version_and_is_stale_after(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, BOT, BOT)
    assert commands.run_work(game.game_id, game.version, BotTurn(1)) == "done"
    assert commands.run_work(game.game_id, game.version, BotTurn(1)) == "stale"
    assert commands.run_work(game.game_id, game.version, BotTurn(2)) == "stale"  # game moved on
    pending = store.pending_work(game.game_id)
    assert pending == [(game.version + 1, BotTurn(2))]  # queued again by the first bot's move


def test_work_the_table_does_not_wait_for_is_stale(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, BOT, BOT)
    assert commands.run_work(game.game_id, game.version, BotTurn(0)) == "stale"  # a human
    assert commands.run_work(game.game_id, game.version, AutomaticWork("scoring")) == "stale"


def test_a_round_ready_for_scoring_queues_automatic_work(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, game=POKER)
    table = game.table
    for kind in ("commit_river_card", "reveal_cards"):
        for seat in (0, 1):
            template = POKER.legal_actions(table.game, seat)[0]
            cards = template["cards"]
            action = {"type": kind, "card": cards[0]} if "count" not in template else {
                "type": kind, "cards": cards[: template["count"]]}  # fmt: skip
            result = commands.act(game.game_id, seat, action)
            table = result.table
    assert store.pending_work(game.game_id) == [(result.version, AutomaticWork("scoring"))]


def test_an_unknown_game_is_not_found(store):
    with pytest.raises(GameNotFound):
        commands_on(store).act(uuid.uuid4(), 0, {"type": "play_card"})


def test_an_open_seat_is_taken_with_its_invite_only(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, tables.SeatInfo(tables.OPEN), tables.SeatInfo(tables.OPEN))
    assert sorted(game.secrets.invites) == [1, 2]
    with pytest.raises(Forbidden):
        commands.join(game.game_id, 1, "eve", game.secrets.invites[2])
    joined = commands.join(game.game_id, 1, "ann", game.secrets.invites[1])
    assert joined.table.seats[1].name == "ann" and store.state.tokens[(game.game_id, 1)]


def test_a_new_token_replaces_the_seats_old_one(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    new = commands.new_token(game.game_id, 0)
    assert store.state.tokens[(game.game_id, 0)] == new != game.secrets.tokens[0]


def timed_table(
    commands: Service, seconds: int = 5, most: int = 3, seats=(HUMAN, HUMAN, HUMAN)
) -> Committed:
    options = {"turn_seconds": seconds, "max_timeouts": most}
    command = tables.CreateTable(seats, options)
    result = commands.create(uuid.uuid4(), TNS, command)
    assert isinstance(result, Committed)
    return result


def later(seconds: float = 10.0) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


def test_a_seat_that_leaves_mid_game_is_played_by_the_basic_bot_and_its_token_is_revoked(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, HUMAN)
    left = commands.leave(game.game_id, 1)
    assert left.table.seats[1] == tables.SeatInfo(tables.BOT, "ada", "basic")
    assert left.table.left == (1,) and (game.game_id, 1) not in store.state.tokens
    assert (left.version, BotTurn(1)) in store.pending_work(game.game_id)


def test_a_seat_left_before_the_deal_opens_again_with_a_new_invite(store):
    commands = commands_on(store)
    game = new_table(commands, HUMAN, HUMAN, tables.SeatInfo(tables.OPEN))
    left = commands.leave(game.game_id, 0)
    assert left.table.seats[0].kind == tables.OPEN and list(left.secrets.invites) == [0]
    joined = commands.join(game.game_id, 0, "bo", left.secrets.invites[0])
    assert joined.table.seats[0].name == "bo"


def test_a_silent_seat_is_timed_out_once_and_a_move_is_made_for_it(store):
    service = commands_on(store)
    game = timed_table(service)
    since = dict(game.table.waiting)[0]
    assert service.automation.time_out(game.game_id, 0, since, later(1)) == "stale"  # not yet
    assert service.automation.time_out(game.game_id, 0, since, later()) == "done"
    assert service.automation.time_out(game.game_id, 0, since, later()) == "stale"  # only once
    types = [e.type for e in store.state.events[game.game_id][game.version :]]
    assert types[:2] == ["TurnTimedOut", "CardsPassed"]
    assert store.state.events[game.game_id][game.version + 1].seat == 0


def test_after_max_timeouts_in_a_row_the_seat_is_treated_as_left(store):
    service = commands_on(store)
    game = timed_table(service, most=1)
    since = dict(game.table.waiting)[2]
    assert service.automation.time_out(game.game_id, 2, since, later()) == "done"
    events = store.state.events[game.game_id][game.version :]
    assert [e.type for e in events][:2] == ["TurnTimedOut", "SeatLeft"]
    table = fold_events(None, store.state.events[game.game_id])
    assert table.seats[2].kind == tables.BOT and table.left == (2,)


def test_timing_out_a_tables_last_human_says_it_is_left_to_bots(store):
    """What the workers count against the creator's quota of tables of bots alone."""
    service = commands_on(store)
    game = timed_table(service, most=1, seats=(HUMAN, BOT, BOT))
    since = dict(game.table.waiting)[0]
    assert service.automation.time_out(game.game_id, 0, since, later()) == "left to bots"
    table = fold_events(None, store.state.events[game.game_id])
    assert [seat.kind for seat in table.seats] == [tables.BOT] * 3


def test_a_commit_carries_the_deadlines_it_set_for_the_seats_it_waits_for(store):
    # Given a timed table of three humans, dealt at once
    service = commands_on(store)
    game = timed_table(service, seconds=5)
    # Then its creation carries each waited-for seat's deadline, the ones its timers hold
    timers = store.state.timers[game.game_id]
    assert game.deadlines and game.deadlines == {s: d for s, (_, d) in timers.items()}
    # And after seat 0 acts, the commit carries the deadlines of the seats still waited for
    acted = service.act(game.game_id, 0, first_pass(game.table, 0))
    assert isinstance(acted, Committed) and acted.deadlines.keys() == {1, 2}
    assert acted.deadlines == {s: game.deadlines[s] for s in (1, 2)}


def test_a_table_without_a_timer_commits_no_deadline(store):
    assert new_table(commands_on(store), HUMAN, HUMAN, HUMAN).deadlines == {}


def test_a_seat_that_acts_is_not_timed_out_for_the_turn_it_took(store):
    service = commands_on(store)
    game = timed_table(service)
    since = dict(game.table.waiting)[0]
    service.act(game.game_id, 0, first_pass(game.table, 0))
    assert service.automation.time_out(game.game_id, 0, since, later()) == "stale"
    assert store.state.timers[game.game_id].keys() == {1, 2}


def test_a_timed_out_log_re_decides_and_a_timeout_before_its_deadline_does_not(store):
    """The audit checks each TurnTimedOut against the log's own times (docs/audit.md)."""
    service = commands_on(store)
    game = timed_table(service)
    since = dict(game.table.waiting)[1]
    moment = datetime.now(UTC) + timedelta(seconds=6)
    store.clock = lambda: moment  # the timeout is recorded when it fires
    assert service.automation.time_out(game.game_id, 1, since, moment) == "done"
    records = [event.record() for event in store.state.events[game.game_id]]
    assert redecide(records, game_id=str(game.game_id)).ok
    early = [dict(record) for record in records]
    fired = next(r for r in early if r["type"] == "TurnTimedOut")
    fired["recorded_at"] = early[since - 1]["recorded_at"]  # at the very moment the turn began
    check = redecide(early, game_id=str(game.game_id))
    assert not check.ok and check.first_bad_version == fired["version"]
    assert "has not run out" in check.problem
