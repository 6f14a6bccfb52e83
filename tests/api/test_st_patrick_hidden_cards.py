"""No St Patrick response shows a caller a card it may not know (API contract, G3, S3, S5).

A round is played over HTTP on a fixed deck with a token for every seat: one card passed each
(S3), a curse that sends every hand to the left (S5), then the hunt. The test models what each
viewer may know from its own side -- the deck it dealt and the actions it sent: a seat knows its
dealt hand, the card it passed, the card it received once every seat has passed, each hand it
was given on the curse, and every card played (face up, public). A spectator knows only the
played cards. After every action each viewer reads the game and the new events, and a seat
that may not act tries a card it does not hold: nothing any of that shows may go beyond.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from tests.api.play import auth, create_game, humans, tokens_of

SUITS = ("clover", "cross", "harp", "snake")
CARD_TEXT = re.compile(rf"\b({'|'.join(SUITS)})\W+(?:rank\W+)?(\d)\b", re.IGNORECASE)
PLAYERS, SIZE = 3, 12


def shown(value) -> Iterator[tuple[str, int]]:
    """Every card in a JSON value: card-shaped dicts, and cards named in any text."""
    if isinstance(value, dict):
        if "suit" in value and "rank" in value:
            yield (value["suit"], value["rank"])
        for item in value.values():
            yield from shown(item)
    elif isinstance(value, list):
        for item in value:
            yield from shown(item)
    elif isinstance(value, str):
        for match in CARD_TEXT.finditer(value):
            yield (match[1].lower(), int(match[2]))


class Round:
    def __init__(self, client) -> None:
        self.client = client
        deck = [(suit, rank) for suit in SUITS for rank in range(1, 10)]
        random.Random(11).shuffle(deck)
        options = {"decks": [[{"suit": s, "rank": r} for s, r in deck]]}
        created = create_game(client, "st_patrick", humans(PLAYERS), options)
        self.id, self.tokens = created["id"], tokens_of(created)
        self.hands = {s: set(deck[s * SIZE : (s + 1) * SIZE]) for s in range(PLAYERS)}
        self.known: dict[int | None, set] = {s: set(h) for s, h in self.hands.items()}
        self.known[None] = set()
        self.passed: dict[int, tuple[str, int]] = {}
        self.cursor = dict.fromkeys(self.known, 0)
        self.hides(None, created, "POST /games")

    def headers(self, viewer: int | None) -> dict:
        return {} if viewer is None else auth(self.tokens[viewer])

    def hides(self, viewer: int | None, body, where: str, also=()) -> None:
        leaks = set(shown(body)) - self.known[viewer] - set(also)
        assert not leaks, f"{where} shows {viewer} cards it may not know: {sorted(leaks)}"

    def check_every_viewer(self) -> dict:
        for viewer in self.known:
            view = self.client.get(f"/games/{self.id}", headers=self.headers(viewer)).get_json()
            self.hides(viewer, view, "GET /games/{id}")
            if viewer is None:
                assert "you" not in view  # a spectator sees no hand
            else:
                assert {(c["suit"], c["rank"]) for c in view["you"]["hand"]} == self.hands[viewer]
            url = f"/games/{self.id}/events?after={self.cursor[viewer]}&limit=1000"
            page = self.client.get(url, headers=self.headers(viewer)).get_json()
            self.hides(viewer, page, "GET /games/{id}/events")
            self.cursor[viewer] = page["version"]
        return self.client.get(f"/games/{self.id}").get_json()

    def try_a_card_held_by_another(self, game: dict) -> None:
        seat = next(s for s in range(PLAYERS) if s not in game["to_act"])
        other = (seat + 1) % PLAYERS
        if not self.hands[other]:
            return
        card = min(self.hands[other])
        action = {"type": "play_card", "card": {"suit": card[0], "rank": card[1]}}
        response = self.client.post(
            f"/games/{self.id}/actions", json=action, headers=self.headers(seat)
        )
        assert response.status_code == 409
        self.hides(seat, response.get_json(), "an illegal action's problem", also=[card])

    def act(self, seat: int, action: dict) -> dict:
        response = self.client.post(
            f"/games/{self.id}/actions", json=action, headers=self.headers(seat)
        )
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        if action["type"] == "play_card":
            card = (action["card"]["suit"], action["card"]["rank"])
            self.hands[seat].discard(card)
            for viewer in self.known:
                self.known[viewer].add(card)  # played face up
        self.hides(seat, body, f"the response to seat {seat}'s {action['type']}")
        return body

    def pass_one_card_each(self) -> None:
        for seat in range(PLAYERS):
            card = min(self.hands[seat])
            self.passed[seat] = card
            self.hands[seat].discard(card)  # it leaves the hand at once, arrives at the end
            if seat == PLAYERS - 1:  # G3: the last choice makes every card arrive
                for receiver in range(PLAYERS):
                    arriving = self.passed[(receiver - 1) % PLAYERS]
                    self.hands[receiver].add(arriving)
                    self.known[receiver].add(arriving)
            self.act(seat, {"type": "pass_cards", "cards": [{"suit": card[0], "rank": card[1]}]})
            if seat < PLAYERS - 1:
                self.check_every_viewer()  # nobody sees it before every seat has passed

    def curse(self, seat: int) -> None:
        """Take all 15 relics: the curse sends each hand to the seat on its left (S5)."""
        before = dict(self.hands)
        self.hands = {s: set(before[(s - 1) % PLAYERS]) for s in range(PLAYERS)}
        for s in range(PLAYERS):
            self.known[s] |= self.hands[s]
        self.act(seat, {"type": "take_relics", "count": 15})


def test_no_seat_nor_spectator_ever_sees_a_card_it_may_not_know(client):
    game = Round(client)
    state = game.check_every_viewer()
    assert state["phase"] == "passing"
    game.pass_one_card_each()
    state = game.check_every_viewer()
    assert state["phase"] == "relics"
    game.curse(state["to_act"][0])
    state = game.check_every_viewer()
    assert state["curses"] == 1 and state["phase"] == "relics"
    for _ in range(PLAYERS):
        game.act(state["to_act"][0], {"type": "pass_relics"})
        state = game.check_every_viewer()
    assert state["phase"] == "playing"
    while True:
        seat = state["to_act"][0]
        mine = client.get(f"/games/{game.id}", headers=game.headers(seat)).get_json()
        card = mine["you"]["legal_actions"][0]["cards"][0]
        body = game.act(seat, {"type": "play_card", "card": card})
        if body["game"]["phase"] != "playing":
            break  # the round is over; its scoring is the workers' (and shows no card)
        state = game.check_every_viewer()
        game.try_a_card_held_by_another(state)
    assert body["game"]["phase"] in ("scoring", "choosing_pass_count", "passing", "finished")
