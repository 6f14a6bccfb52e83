"""The command service's policy on the in-memory unit of work (no database): what is queued
after each commit, idempotent retries, conflicts and refusals that change nothing."""

from __future__ import annotations

import itertools
import random
import uuid

import pytest

from domain import table as tables
from domain.games import get_game_type
from events.commands import Commands, Committed, Replayed
from events.errors import ActionRefused, GameNotFound, IdempotencyKeyReused, VersionConflict
from events.folding import fold_events
from events.idempotent_requests import IdempotentRequest
from events.memory import MemoryStore
from events.outbox import AutomaticWork, BotTurn
from events.sealing import Sealer

TNS, POKER = get_game_type("trick_and_snipers"), get_game_type("saint_poker")
HUMAN, BOT = tables.SeatInfo(tables.HUMAN, "ada"), tables.SeatInfo(tables.BOT, level="random")


@pytest.fixture()
def store() -> MemoryStore:
    return MemoryStore()


def commands_on(store: MemoryStore, seed: int = 1) -> Commands:
    counter = itertools.count()
    return Commands(
        units=store.unit_of_work,
        sealer=Sealer(b"s" * 32),
        deal_rng=random.Random(seed),
        new_token=lambda: f"token-{next(counter)}",
    )


def new_table(commands: Commands, *seats: tables.SeatInfo, game=TNS) -> Committed:
    result = commands.create(uuid.uuid4(), game, tables.CreateTable(tuple(seats), {}))
    assert isinstance(result, Committed)
    return result


def first_pass(table: tables.Table, seat: int) -> dict:
    template = table.game_type.legal_actions(table.game, seat)[0]
    return {"type": "pass_cards", "cards": template["cards"][: template["count"]]}


def test_a_full_table_is_dealt_at_once_and_its_bots_turns_are_queued(store):
    created = new_table(commands_on(store), HUMAN, BOT, BOT)
    assert created.table.started and created.tokens == {0: "token-0"}
    assert [w for _, w in store.pending_work(created.game_id)] == [BotTurn(1), BotTurn(2)]


def test_a_table_of_humans_queues_no_work(store):
    created = new_table(commands_on(store), HUMAN, HUMAN, HUMAN)
    assert store.pending_work(created.game_id) == []


def test_the_same_seed_deals_the_same_cards(store):
    one = new_table(commands_on(store, seed=7), HUMAN, HUMAN, HUMAN)
    two = new_table(commands_on(store, seed=7), HUMAN, HUMAN, HUMAN)
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
    assert again.tokens == first.tokens == {0: "token-0", 1: "token-1"}
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
