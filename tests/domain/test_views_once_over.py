"""A game that is over hides nothing, at any version of it (domain/tables/view.view_once_over):
every seat's entry shows the cards the seat held then, and the table what the end reveals."""

from __future__ import annotations

import random

import pytest

from domain.games import GAME_TYPES
from domain.kit.cards import cards_json
from domain.kit.game_type import GameType
from domain.tables import selfplay
from domain.tables.table import Table
from domain.tables.view import view_once_over, view_table
from tests.fifth_game.high_card import GAME as HIGH_CARD

PLAYERS = {
    "st_patrick": 3,
    "ouroboros_trick": 4,
    "trick_and_snipers": 4,
    "saint_poker": 3,
    "high_card": 2,
}
GAMES = {**GAME_TYPES, "high_card": HIGH_CARD}  # a game added later needs no line for this


def tables_of_a_game(game: GameType, seed: int = 5) -> list[Table]:
    """The table after every decision of one bot game, the last one finished."""
    table, _ = selfplay.bot_table(game, ["random"] * PLAYERS[game.id])
    return [step.table for step in selfplay.steps(table, random.Random(seed))]


def middle(tables: list[Table]) -> list[Table]:
    """Tables mid-game: some early, some half-way, some late."""
    return [tables[len(tables) * k // 8] for k in range(1, 8)]


def as_set(cards: list[dict]) -> set[tuple[str, int]]:
    return {(card["suit"], card["rank"]) for card in cards}


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_every_seat_shows_the_hand_it_held_then(game_id):
    # Given a bot game played to its end
    tables = tables_of_a_game(GAMES[game_id])
    assert tables[-1].status == "finished"
    for then in middle(tables):
        # When anyone looks at a version from its middle
        view = view_once_over(then, None)
        # Then each seat's entry holds exactly that seat's hand as the state held it
        for entry in view["seats"]:
            held = then.game.hands[entry["seat"]]
            assert as_set(entry["hand"]) == as_set(cards_json(held))
            assert len(entry["hand"]) == entry["hand_count"]


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_a_seats_entry_is_what_its_own_view_showed_but_what_it_could_do(game_id):
    # Given a version from the middle of a game now over
    for then in middle(tables_of_a_game(GAMES[game_id])):
        for entry in view_once_over(then, None)["seats"]:
            # Then the entry holds the seat's own `you` block, less its seat and legal actions
            own = view_table(then, entry["seat"])["you"]
            for key, value in own.items():
                if key not in ("seat", "legal_actions"):
                    assert entry[key] == value
            assert "legal_actions" not in entry


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_a_seat_still_gets_its_own_block(game_id):
    then = middle(tables_of_a_game(GAMES[game_id]))[3]
    view = view_once_over(then, 1)
    assert view["you"] == view_table(then, 1)["you"]


def test_trick_and_snipers_left_over_cards_show_at_every_version():
    # T1: hidden until the game ends, and it has
    tables = tables_of_a_game(GAME_TYPES["trick_and_snipers"])
    left_over = view_table(tables[-1], None)["leftover"]
    assert len(left_over) == 4  # 48 cards, 11 each to 4 seats
    for then in middle(tables):
        assert "leftover" not in view_table(then, None)
        assert view_once_over(then, None)["leftover"] == left_over


def test_saint_poker_deck_shows_as_it_stood_then():
    for then in middle(tables_of_a_game(GAME_TYPES["saint_poker"])):
        view = view_once_over(then, None)
        assert "deck" not in view_table(then, None)
        assert view["deck"] == cards_json(then.game.deck)
        assert len(view["deck"]) == view["deck_count"]


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_the_same_versions_seen_as_usual_show_no_hand(game_id):
    # The open view is only ever asked for once the game is over; the usual view is unchanged.
    for then in middle(tables_of_a_game(GAMES[game_id])):
        for viewer in (None, 0):
            assert all("hand" not in entry for entry in view_table(then, viewer)["seats"])


def test_a_finished_table_shows_its_end_reveals_once():
    table = tables_of_a_game(GAME_TYPES["trick_and_snipers"])[-1]
    assert view_once_over(table, None)["leftover"] == view_table(table, None)["leftover"]
