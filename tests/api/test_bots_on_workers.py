"""Bots act on the RQ workers, reached through the outbox, with no client involved."""

from __future__ import annotations

import random

from domain.games import get_game_type
from domain.kit.codec import from_json
from domain.kit.decider import Event
from domain.tables import table as tables
from domain.tables.actions import command_from_action
from domain.tables.view import view_table
from tests.api.play import auth, create_game, play_one, tokens_of, wait_for

GAME = get_game_type("trick_and_snipers")


def test_a_table_of_four_bots_plays_itself_to_the_end(client, worker):
    bots = [{"kind": "bot", "level": level} for level in ("random", "basic", "basic", "random")]
    game = create_game(client, "trick_and_snipers", bots)
    final = wait_for(client, game["id"], lambda g: g["status"] == "finished", timeout=60)
    assert final["result"]["winners"]


def basic_bot_choices(log: list[dict], bot_seats: set[int]) -> list[tuple[Event, Event]]:
    """Each choice a bot seat made, as recorded, beside the one the basic bot makes from that
    seat's view of the table folded from the log up to it (this bot draws no randomness)."""
    created, *rest = (from_json(tables.event_class(GAME, e["type"]), e["data"]) for e in log)
    table, pairs = tables.create(GAME, created), []
    for event in rest:
        if type(event).__name__ in GAME.choices and event.actor() in bot_seats:
            seat = event.actor()
            action = GAME.bots["basic"](view_table(table, seat), random.Random(0))
            chosen = tables.decide(table, command_from_action(GAME, seat, action))[0]
            pairs.append((event, chosen))
        table = tables.evolve(table, event)
    return pairs


def test_a_human_plays_by_the_api_while_the_bots_move_on_the_workers(client, worker):
    seats = [{"kind": "human", "name": "Hana"}] + [{"kind": "bot", "level": "basic"}] * 2
    game = create_game(client, "trick_and_snipers", seats)
    token, rng = tokens_of(game)[0], random.Random(5)
    while True:
        state = wait_for(
            client, game["id"], lambda g: g["status"] == "finished" or 0 in g["to_act"]
        )
        if state["status"] == "finished":
            break
        play_one(client, game["id"], 0, token, rng)
    mine = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()
    assert sorted(mine["result"]["winners"] + mine["result"]["losers"]) == [0, 1, 2]
    log = client.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    choices = basic_bot_choices(log, bot_seats={1, 2})
    assert {recorded.actor() for recorded, _ in choices} == {1, 2}  # both bots passed, played
    assert all(recorded == chosen for recorded, chosen in choices)  # the basic bot's moves
