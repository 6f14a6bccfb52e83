"""Re-deciding a game's log (events/audit/redecide.py): a genuine log is exactly what the rules
give, and a forged one is caught at the version where it first departs from them. Pure: no database.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from functools import cache

import pytest

from domain.games import GAME_TYPES
from domain.kit.cards import Card
from domain.kit.codec import canonical_json, to_json
from domain.kit.decider import Event
from domain.kit.origins import event_origin
from domain.tables import table as tables
from domain.tables.selfplay import play_out, steps
from events.audit.redecide import RulesCheck, redecide

GAMES = sorted(GAME_TYPES)
TRICK_GAMES = [game_id for game_id in GAMES if "TrickWon" in GAME_TYPES[game_id].events]
Record = dict


def records_of(events: list[Event]) -> list[Record]:
    """The events as the store records them, data round-tripped through JSON."""
    return [
        {
            "version": version,
            "type": type(event).__name__,
            "seat": event.actor(),
            "visible_to": None if event.visible_to() is None else list(event.visible_to()),
            "data": json.loads(json.dumps(to_json(event))),
        }
        for version, event in enumerate(events, start=1)
    ]


def folded(events: list[Event]) -> tables.Table:
    created, *rest = events
    table = tables.create(GAME_TYPES[created.game_type], created)
    for event in rest:
        table = tables.evolve(table, event)
    return table


def fixed_deck(game_id: str, players: int, seed: int) -> tuple[Card, ...]:
    game = GAME_TYPES[game_id]
    cards = game.cards_to_deal(game.new_game(players, dict(game.options)))
    return tuple(random.Random(seed).sample(cards, len(cards)))


@cache
def _played(game_id: str, players: int, level: str, seed: int, fixed: bool) -> tuple[str, object]:
    game = GAME_TYPES[game_id]
    decks = (fixed_deck(game_id, players, seed),) if fixed else ()
    _, events = play_out(game, [level] * players, random.Random(seed), fixed_decks=decks)
    return json.dumps(records_of(events)), folded(events)


def game_log(
    game_id: str, players: int = 0, level: str = "random", seed: int = 2, fixed: bool = False
) -> tuple[list[Record], tables.Table]:
    """A finished game of bots (fresh records, free to forge) and the table folded from it.
    Seed 2 at the most seats makes a St Patrick game where a seat chooses the pass count."""
    text, table = _played(game_id, players or GAME_TYPES[game_id].max_players, level, seed, fixed)
    return json.loads(text), table  # type: ignore[return-value]


def index_of(records: list[Record], name: str, start: int = 0) -> int:
    return next(i for i in range(start, len(records)) if records[i]["type"] == name)


def renumbered(records: list[Record]) -> list[Record]:
    return [{**record, "version": version} for version, record in enumerate(records, start=1)]


def assert_caught_at(check: RulesCheck, version: int, said: str = "") -> None:
    assert not check.ok
    assert check.first_bad_version == version
    assert check.problem is not None and check.problem.startswith(f"v{version}: {said}")
    assert check.events_checked == version - 1


# --- genuine logs


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("level", ["random", "basic"])
@pytest.mark.parametrize("seats", ["min", "max"])
def test_a_genuine_log_re_decides_to_the_folded_table(game_id, level, seats):
    game = GAME_TYPES[game_id]
    players = game.min_players if seats == "min" else game.max_players
    records, table = game_log(game_id, players, level, seed=7)
    check = redecide(records)
    assert (check.ok, check.problem, check.first_bad_version) == (True, None, None)
    assert check.events_checked == len(records)
    assert check.table == table and check.table.status == "finished"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_genuine_logs_hold_every_choice_of_their_game(game_id):
    records, _ = game_log(game_id)
    assert set(GAME_TYPES[game_id].choices) <= {record["type"] for record in records}
    if game_id == "st_patrick":
        assert any(r["type"] == "PassCountSet" and r["seat"] is not None for r in records)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_fixed_deck_game_re_decides_with_its_deck(game_id):
    records, table = game_log(game_id, fixed=True)
    assert records[1]["type"] == "FixedDecksChosen"
    check = redecide(records)
    assert check.ok and check.table == table


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_taken_after_the_table_was_created_re_decides(game_id):
    game = GAME_TYPES[game_id]
    bot = tables.SeatInfo(tables.BOT, level="random")
    seats = (bot, tables.SeatInfo(tables.OPEN)) + (bot,) * (game.min_players - 2)
    events = tables.decide_create(game, tables.CreateTable(seats, {}))
    events += tables.decide(folded(events), tables.JoinSeat(1, "Ann"))
    # Bots drive every seat, Ann's too: the rules never ask who sits there.
    driven = replace(folded(events), seats=(bot,) * game.min_players)
    events += [event for step in steps(driven, random.Random(5)) for event in step.events]
    check = redecide(records_of(events))
    assert check.ok and check.table == folded(events)
    assert check.table.seats[1] == tables.SeatInfo(tables.HUMAN, "Ann")


def test_an_unfinished_log_re_decides_up_to_its_last_decision():
    records, _ = game_log("st_patrick")
    cut = index_of(records, "CardsPassed")  # the deal is over, nobody has passed yet
    check = redecide(records[:cut])
    assert check.ok and check.table.game.phase == "passing"


def test_the_tables_asked_for_are_kept_at_their_versions():
    records, table = game_log("trick_and_snipers")
    check = redecide(records, keep={1, 6, len(records), len(records) + 5})
    assert sorted(check.tables_at) == [1, 6, len(records)]
    assert check.tables_at[1].game.phase == "dealing" and check.tables_at[len(records)] == table


# --- forgeries


@pytest.mark.parametrize("game_id", GAMES)
def test_a_card_the_seat_did_not_hold_is_refused_at_its_version(game_id):
    records, _ = game_log(game_id)
    i = next(i for i, r in enumerate(records) if r["type"] in ("CardPlayed", "RiverCardCommitted"))
    before = redecide(records, keep={i}).tables_at[i]  # version i is the record before
    seat = records[i]["seat"]
    sealed = records[index_of(records, "DeckSealed")]["data"]["deck"]
    other = next(c for c in sealed if Card(**c) not in before.game.hands[seat])
    records[i]["data"]["card"] = other
    check = redecide(records)
    assert_caught_at(check, i + 1, f"seat {seat}'s ")
    assert check.problem.endswith(f"is against the rules: you do not hold {Card(**other)}")


def test_a_held_card_played_instead_of_another_shows_at_the_trick_it_changes():
    """Another legal card is a legal choice: the log departs from the rules only where the trick
    is won, since the TrickWon recorded holds the card really played."""
    records, _ = game_log("st_patrick")
    i, other = a_middle_play_with_another_legal_card(records)
    records[i]["data"]["card"] = other
    won = index_of(records, "TrickWon", start=i)
    assert_caught_at(redecide(records), won + 1, "TrickWon ")


def a_middle_play_with_another_legal_card(records: list[Record]) -> tuple[int, dict]:
    """A play neither leading (it would change the led suit) nor ending its trick, by a seat
    that could have played another card."""
    kept = redecide(records, keep=range(len(records))).tables_at  # kept[i]: before records[i]
    for i in range(1, len(records) - 1):
        if records[i - 1]["type"] == records[i]["type"] == records[i + 1]["type"] == "CardPlayed":
            legal = GAME_TYPES["st_patrick"].legal_actions(kept[i].game, records[i]["seat"])
            others = [card for card in legal[0]["cards"] if card != records[i]["data"]["card"]]
            if others:
                return i, others[0]
    raise AssertionError("no such play in the game")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_dropped_event_is_caught_where_it_is_missing(game_id):
    records, _ = game_log(game_id)
    game = GAME_TYPES[game_id]
    dealt = index_of(records, "DeckSealed")
    i = next(
        i for i in range(dealt, len(records)) if event_origin(game, records[i]["type"]) == "derived"
    )
    assert_caught_at(redecide(renumbered(records[:i] + records[i + 1 :])), i + 1)


def test_a_dropped_play_makes_the_next_one_out_of_turn():
    records, _ = game_log("st_patrick")
    i = index_of(records, "CardPlayed")
    check = redecide(renumbered(records[:i] + records[i + 1 :]))
    assert_caught_at(check, i + 1, f"seat {records[i + 1]['seat']}'s play_card")
    assert check.problem.endswith(f"it is not your turn: seat {records[i]['seat']} plays next")


@pytest.mark.parametrize("game_id", GAMES)
def test_two_swapped_events_are_caught_at_the_first(game_id):
    records, _ = game_log(game_id)
    game = GAME_TYPES[game_id]
    i = next(
        i
        for i in range(len(records) - 1)
        if records[i]["type"] in game.choices
        and event_origin(game, records[i + 1]["type"]) == "derived"
    )
    records[i], records[i + 1] = records[i + 1], records[i]
    check = redecide(renumbered(records))
    assert_caught_at(check, i + 1, f"{records[i]['type']} is not a player's choice; ")


def test_simultaneous_choices_may_be_recorded_in_either_order():
    records, table = game_log("trick_and_snipers")
    i = index_of(records, "CardsPassed")
    records[i], records[i + 1] = records[i + 1], records[i]
    check = redecide(renumbered(records))
    assert check.ok and check.table == table


@pytest.mark.parametrize("game_id", GAMES)
def test_changed_winners_of_the_game_are_caught(game_id):
    records, _ = game_log(game_id)
    ended = records[-1]["data"]
    real, ended["winners"] = ended["winners"], ended["losers"]
    check = redecide(records)
    forged, real = canonical_json(ended["winners"]), canonical_json(real)
    assert check.problem == f"v{len(records)}: GameEnded winners {forged}, the rules give {real}"
    assert_caught_at(check, len(records))


@pytest.mark.parametrize("game_id", GAMES)
def test_any_value_the_rules_derive_changed_is_caught_at_its_version(game_id):
    """Derived events are caught where they are changed; a changed deal record at its deal (the
    deal is rebuilt from DeckSealed, so a changed deck shows first in the commitment)."""
    game = GAME_TYPES[game_id]
    records, _ = game_log(game_id)
    for i, record in enumerate(records):
        origin = event_origin(game, record["type"])
        if origin in ("derived", "deal"):
            forged, _ = game_log(game_id)
            change_a_value(forged[i]["data"])
            check = redecide(forged)
            assert not check.ok and check.first_bad_version <= i + 1, record
            assert origin == "deal" or check.first_bad_version == i + 1, (record, check.problem)


def change_a_value(data: dict) -> None:
    """The first number, string or null in the data, depth first, changed."""
    todo: list = [(data, key) for key in reversed(list(data))]
    while todo:
        parent, key = todo.pop()
        value = parent[key]
        if isinstance(value, (dict, list)):
            keys = list(value) if isinstance(value, dict) else range(len(value))
            todo += [(value, inner) for inner in reversed(list(keys))]
        else:
            changed = {bool: lambda v: not v, int: lambda v: v + 1, str: lambda v: v + "x"}
            parent[key] = changed.get(type(value), lambda v: 0)(value)
            return


@pytest.mark.parametrize("game_id", GAMES)
def test_a_sealed_deck_made_public_is_caught(game_id):
    records, _ = game_log(game_id)
    i = index_of(records, "DeckSealed")
    records[i]["visible_to"] = None
    check = redecide(records)
    assert check.problem == f"v{i + 1}: DeckSealed visible_to null, the rules give []"
    assert_caught_at(check, i + 1)


@pytest.mark.parametrize("game_id", TRICK_GAMES)
def test_a_trick_given_to_another_seat_is_caught(game_id):
    records, _ = game_log(game_id)
    i = index_of(records, "TrickWon")
    real = records[i]["seat"]
    records[i]["seat"] = records[i]["data"]["seat"] = (real + 1) % len(records[0]["data"]["seats"])
    check = redecide(records)
    assert check.problem == f"v{i + 1}: TrickWon seat {records[i]['seat']}, the rules give {real}"


def test_round_points_changed_are_caught():
    records, _ = game_log("saint_poker")
    i = index_of(records, "RoundScored")
    records[i]["data"]["points"][0] += 1
    assert_caught_at(redecide(records), i + 1, "RoundScored points ")


def test_a_sealed_deck_that_is_not_the_committed_one_is_caught_at_the_commitment():
    records, _ = game_log("trick_and_snipers")
    deck = records[index_of(records, "DeckSealed")]["data"]["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]  # the left-overs, which no hand shows
    i = index_of(records, "DealCommitted")
    assert_caught_at(redecide(records), i + 1, "DealCommitted commitment ")


def test_a_deal_that_is_not_the_fixed_deck_is_caught():
    records, _ = game_log("st_patrick", fixed=True)
    deck = records[index_of(records, "DeckSealed")]["data"]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    assert_caught_at(redecide(records), index_of(records, "DeckSealed") + 1, "DeckSealed deck[0] ")
    records, _ = game_log("st_patrick", fixed=True)
    records[1]["data"]["decks"][0].reverse()  # a fixed deck the game was not dealt
    assert_caught_at(redecide(records), 3, "DealCommitted commitment ")


def test_a_rule_made_pass_count_where_a_seat_must_choose_is_refused():
    records, _ = game_log("st_patrick")
    i = next(
        i for i, r in enumerate(records) if r["type"] == "PassCountSet" and r["seat"] is not None
    )
    records[i]["seat"] = records[i]["data"]["seat"] = None
    assert_caught_at(redecide(records), i + 1, "seat None's choose_pass_count ")


def test_what_the_rules_derive_inside_a_choice_is_checked_too():
    records, _ = game_log("st_patrick")
    i = index_of(records, "RelicsTaken")
    records[i]["data"]["left"] += 1
    assert_caught_at(redecide(records), i + 1, "RelicsTaken left ")
    records, _ = game_log("ouroboros_trick")
    i = next(
        i
        for i, r in enumerate(records)
        if r["type"] == "CardsDiscarded" and not r["data"]["forced"]
    )
    records[i]["data"]["forced"] = True
    assert (
        redecide(records).problem == f"v{i + 1}: CardsDiscarded forced true, the rules give false"
    )


def test_events_after_the_end_of_the_game_are_refused():
    records, _ = game_log("ouroboros_trick")
    records.append({**records[-2], "version": len(records) + 1})
    assert_caught_at(redecide(records), len(records), "the game is over, yet the log goes on")


def test_a_log_cut_inside_a_decision_names_the_event_the_rules_give_next():
    records, _ = game_log("trick_and_snipers")
    cut = index_of(records, "CardsReceived")
    check = redecide(records[:cut])
    assert check.problem == f"v{cut + 1}: the log ends, the rules give CardsReceived next"


@pytest.mark.parametrize(
    "forge",
    [
        lambda r: r["data"].update(card="garbage"),
        lambda r: r["data"].update(card={"suit": 1, "rank": "x"}),
        lambda r: r["data"].pop("card"),
        lambda r: r.update(data=None),
        lambda r: r.update(data=[1, 2]),
        lambda r: r.update(seat="x"),
        lambda r: r["data"].update(seat="x"),
        lambda r: r.update(type="Nonsense"),
        lambda r: r.update(type="DealCommitted"),
        lambda r: r.pop("data"),
        lambda r: r.update(version="7"),
        lambda r: r.update(visible_to=[[]]),
    ],
)
def test_unreadable_data_is_a_problem_at_its_version_never_an_exception(forge):
    records, _ = game_log("st_patrick")
    i = index_of(records, "CardPlayed")
    forge(records[i])
    assert_caught_at(redecide(records), i + 1)


@pytest.mark.parametrize(
    "forge",
    [
        lambda r: r[0]["data"].update(options=[1, 2]),
        lambda r: r[0]["data"].update(game_type=["x"]),
        lambda r: r[0]["data"].update(game_type="chess"),
        lambda r: r[0]["data"].update(seats=5),
        lambda r: r[0].update(type="SeatJoined"),
        lambda r: r[1]["data"].update(first_leader="x"),
        lambda r: r[1]["data"].update(round=None),
        lambda r: r[index_of(r, "DeckSealed")]["data"].update(deck=[{"suit": 1, "rank": 2}] * 3),
        lambda r: r[index_of(r, "DeckSealed")]["data"].update(salt=5),
        lambda r: r[index_of(r, "DeckSealed")].update(type="HandDealt"),
        lambda r: r.clear(),
    ],
)
def test_a_forged_table_or_deal_is_a_problem_never_an_exception(forge):
    records, _ = game_log("ouroboros_trick")
    forge(records)
    check = redecide(records)
    assert not check.ok and check.problem.startswith(f"v{check.first_bad_version}: ")
    assert check.first_bad_version <= 2  # the table, or the deal starting at v2


def test_a_long_game_is_audited_well_under_100_ms():
    records, _ = game_log("st_patrick", players=4, level="basic", seed=2)
    assert len(records) > 450
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        assert redecide(records).ok
        timings.append(time.perf_counter() - start)
    assert min(timings) < 0.1


def test_a_table_with_a_seat_of_no_known_kind_is_against_the_rules():
    records, _ = game_log("trick_and_snipers")
    records[0]["data"]["seats"][1]["kind"] = "botx"
    checked = redecide(records)
    assert not checked.ok and checked.first_bad_version == 1


def test_a_deal_whose_salt_is_short_enough_to_guess_is_a_problem_at_the_deal():
    records, _ = game_log("trick_and_snipers")
    records[index_of(records, "DeckSealed")]["data"]["salt"] = "ab"
    check = redecide(records)
    assert not check.ok and check.first_bad_version == 2 and "salt" in check.problem
