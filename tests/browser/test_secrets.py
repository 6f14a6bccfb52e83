"""`secrets.secret_cards` on real games (the Flask test client, fixed decks, every seat held by
the test): it returns exactly what a seat may not know. No browser needed."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain.games import get_game_type
from testing.browser.cards import Card, card_json, card_of, cards_of
from testing.browser.secrets import (
    NotFirstDeal,
    all_events,
    client_reader,
    hidden_cards,
    secret_cards,
    server_table,
)
from tests.api.play import auth, create_game, humans, tokens_of


def shuffled_deck(game_type: str, players: int, seed: int) -> list[Card]:
    game = get_game_type(game_type)
    deck = [
        (card.suit, card.rank) for card in game.cards_to_deal(game.new_game(players, game.options))
    ]
    random.Random(seed).shuffle(deck)
    return deck


class Game:
    """A game of humans only, made with a fixed deck, every seat's token held here."""

    def __init__(self, client, database_url: str, game_type: str, players: int, seed: int = 1,
                 options: dict | None = None) -> None:  # fmt: skip
        self.client, self.database_url = client, database_url
        self.deck = shuffled_deck(game_type, players, seed)
        options = {**(options or {}), "deck": [card_json(card) for card in self.deck]}
        created = create_game(client, game_type, humans(players), options)
        self.id, self.tokens, self.players = created["id"], tokens_of(created), players
        self.read = client_reader(client)

    def dealt(self, size: int) -> dict[int, set[Card]]:
        """Seat 0 gets the first `size` cards of the deck, and so on."""
        return {s: set(self.deck[s * size : (s + 1) * size]) for s in range(self.players)}

    def secret(self, seat: int) -> set[Card]:
        return secret_cards(self.database_url, self.read, self.id, seat, self.tokens[seat])

    def view(self, seat: int | None = None) -> dict:
        return self.read(f"/games/{self.id}", None if seat is None else self.tokens[seat])

    def hand(self, seat: int) -> set[Card]:
        return cards_of(self.view(seat)["you"]["hand"])

    def act(self, seat: int, action: dict) -> dict:
        response = self.client.post(
            f"/games/{self.id}/actions", json=action, headers=auth(self.tokens[seat])
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def others(self, seat: int) -> set[Card]:
        """The other seats' hands, as each of them sees its own."""
        return {card for s in range(self.players) if s != seat for card in self.hand(s)}


def test_right_after_the_deal_a_seat_may_not_know_the_other_hands_and_the_left_over_pile(
    client, settings
):
    game = Game(client, settings.database_url, "trick_and_snipers", 3)
    dealt = game.dealt(12)
    left_over = set(game.deck[36:])
    assert len(left_over) == 4
    for seat in range(3):
        assert game.hand(seat) == dealt[seat]
        others = set().union(*(dealt[s] for s in range(3) if s != seat))
        assert game.secret(seat) == others | left_over


def test_passed_cards_are_secret_from_the_others_until_they_arrive(client, settings):
    game = Game(client, settings.database_url, "trick_and_snipers", 3, seed=2)
    dealt = game.dealt(12)
    left_over = set(game.deck[36:])
    passes = {seat: sorted(dealt[seat])[:4] for seat in range(3)}
    game.act(0, {"type": "pass_cards", "cards": [card_json(c) for c in passes[0]]})
    # In transit: out of seat 0's hand, still nobody else's to see; seat 0 knows them.
    assert game.secret(1) == dealt[0] | dealt[2] | left_over
    assert game.secret(0) == dealt[1] | dealt[2] | left_over
    for seat in (1, 2):
        game.act(seat, {"type": "pass_cards", "cards": [card_json(c) for c in passes[seat]]})
    # Arrived to the left: seat 1 now holds seat 0's four, seat 2 knows nothing of them (but
    # knows where its own four went: to seat 0).
    assert set(passes[0]) <= game.hand(1)
    assert game.secret(2) == (game.others(2) - set(passes[2])) | left_over
    assert set(passes[0]) <= game.secret(2)
    assert not set(passes[0]) & game.secret(1)
    # Seat 0 knows where its passed cards went, and what it received; not the rest.
    assert game.secret(0) == (game.others(0) - set(passes[0])) | left_over


def test_a_card_played_face_up_is_nobody_s_secret(client, settings):
    game = Game(client, settings.database_url, "trick_and_snipers", 3, seed=3,
                options={"first_leader": 0})  # fmt: skip
    dealt = game.dealt(12)
    for seat in range(3):
        cards = sorted(dealt[seat])[:4]
        game.act(seat, {"type": "pass_cards", "cards": [card_json(c) for c in cards]})
    lead = game.view(0)["you"]["legal_actions"][0]["cards"][0]
    game.act(0, {"type": "play_card", "card": lead})
    card = (lead["suit"], lead["rank"])
    for seat in range(3):
        secret = game.secret(seat)
        assert card not in secret
        assert secret == game.others(seat) - _known_passes(game, seat) | set(game.deck[36:])


def _known_passes(game: Game, seat: int) -> set[Card]:
    return cards_of(game.view(seat)["you"]["passed_cards"] or [])


def test_saint_poker_the_deck_is_secret_the_rivers_are_not_and_a_commit_is_until_all_commit(
    client, settings
):
    game = Game(client, settings.database_url, "saint_poker", 2, seed=4)
    dealt = game.dealt(10)
    public = game.view()
    rivers = cards_of(public["river"]) | cards_of(public["future_river"])
    assert rivers and rivers <= set(game.deck[20:])
    deck = set(game.deck[20:]) - rivers
    assert len(deck) == 52 - 20 - len(rivers)
    assert game.secret(0) == dealt[1] | deck
    committed = sorted(dealt[0])[0]
    game.act(0, {"type": "commit_river_card", "card": card_json(committed)})
    assert committed in game.secret(1)  # G3: chosen in secret, out of seat 0's hand
    assert committed not in game.secret(0)
    game.act(1, {"type": "commit_river_card", "card": card_json(sorted(dealt[1])[0])})
    assert committed not in game.secret(1)  # the river is complete: face up
    assert game.secret(1) == game.hand(0) | deck


@pytest.mark.parametrize("game_type", ["ouroboros_trick", "st_patrick"])
def test_when_every_card_is_dealt_the_secret_cards_are_the_other_hands(client, settings, game_type):
    game = Game(client, settings.database_url, game_type, 3, seed=5)
    dealt = game.dealt(12)
    assert game.view()["round"] == 1
    for seat in range(3):
        assert game.secret(seat) == set().union(*(dealt[s] for s in range(3) if s != seat))


def test_secret_cards_refuse_a_game_past_its_first_deal(client, settings):
    game = Game(client, settings.database_url, "st_patrick", 3, seed=6)
    table, stored = server_table(settings.database_url, game.id)
    assert hidden_cards(table, stored, 0)
    with pytest.raises(NotFirstDeal):
        hidden_cards(dataclasses.replace(table, deals_made=2), stored, 0)


def play_first_legal(game: Game) -> dict:
    """The seat the game waits for takes its first template's first cards (or first card)."""
    seat = game.view()["to_act"][0]
    template = game.view(seat)["you"]["legal_actions"][0]
    if "count" in template and "cards" in template:
        action = {"type": template["type"], "cards": template["cards"][: template["count"]]}
    else:
        action = {"type": template["type"], "card": template["cards"][0]}
    return game.act(seat, action)


def test_ouroboros_cards_face_down_in_a_pool_are_public_from_the_log(client, settings):
    game = Game(client, settings.database_url, "ouroboros_trick", 3, seed=8,
                options={"first_leader": 0})  # fmt: skip
    while sum(e["type"] == "TrickWon" for e in all_events(game.read, game.id)) < 2:
        play_first_legal(game)
    first = next(e for e in all_events(game.read, game.id) if e["type"] == "TrickWon")
    winner = first["data"]["seat"]
    first_cards = cards_of(first["data"]["cards"])
    table, _ = server_table(settings.database_url, game.id)
    assert first_cards <= {(card.suit, card.rank) for card in table.game.pools[winner]}
    last_trick = {card_of(play["card"]) for play in game.view()["last_trick"]["plays"]}
    assert not first_cards & last_trick
    for seat in range(3):  # known only from the log: a face-down pool shows in no view
        assert game.secret(seat) == game.others(seat)
        assert not first_cards & game.secret(seat)


def test_st_patrick_a_seat_knows_the_hand_it_handed_on_a_curse(client, settings):
    game = Game(client, settings.database_url, "st_patrick", 3, seed=9)
    for _ in range(3):
        play_first_legal(game)  # S3: everyone passes one card
    before = {seat: game.hand(seat) for seat in range(3)}
    passed = {s: cards_of(game.view(s)["you"]["passed_cards"]) for s in range(3)}
    taker = game.view()["to_act"][0]
    game.act(taker, {"type": "take_relics", "count": 15})  # S4 (B): the middle is empty
    assert game.view()["curses"] == 1
    assert {frozenset(game.hand(s)) for s in range(3)} == {frozenset(h) for h in before.values()}
    for seat in range(3):  # it held one of the other hands, and passed a card into another
        assert game.secret(seat) == game.others(seat) - before[seat] - passed[seat]
