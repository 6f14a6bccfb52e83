"""No response ever shows a caller a card they may not know (API contract, G3, T1, T2).

Whole Trick & Snipers games are played over HTTP with a token for every seat. After every action,
each seat and a spectator read the game, the event log, the replay at the current version, and
the errors of illegal actions; every card any of those shows must be one the viewer knows, as
modelled by `tests.api.knowledge` from the test's own side: a seat knows its dealt hand, the cards
it passed, the cards it received once every seat has passed, and every card played face up in a
trick (public to everyone, spectators included). Once the game is finished, everything shows.
"""

from __future__ import annotations

import random

import pytest

from tests.api.knowledge import (
    SUITS,
    Card,
    Knowledge,
    Viewer,
    card_json,
    card_of,
    cards_of,
    cards_shown,
)
from tests.api.play import action_from, auth, create_game, humans, tokens_of

HAND_SIZES = {3: 12, 4: 11, 5: 9}  # T1
PASS_COUNT = 4  # T2
FULL_LOG_EVERY = 5  # actions between two reads of the whole event log, per viewer
PROBLEM = "application/problem+json"


def deck_for(players: int) -> list[Card]:
    """T1, written out here rather than imported: 48 cards, without 5s and 8s for 3 players."""
    removed = {5, 8} if players == 3 else set()
    return [(suit, rank) for suit in SUITS for rank in range(1, 13) if rank not in removed]


def headers_for(tokens: dict[int, str], viewer: Viewer) -> dict:
    return {} if viewer is None else auth(tokens[viewer])


def who(viewer: Viewer) -> str:
    return "a spectator" if viewer is None else f"seat {viewer}"


class WatchedGame:
    """A game played through HTTP, with a model of what every viewer may know at each moment."""

    def __init__(
        self, client, players: int, seed: str, fixed_deck: bool, avoid_points: bool = False
    ) -> None:
        self.client = client
        self.avoid_points = avoid_points
        self.players = players
        self.rng = random.Random(seed)
        self.fixed_deck = fixed_deck
        self.seats = list(range(players))
        self.viewers: list[Viewer] = [*self.seats, None]
        self.knowledge = Knowledge(self.viewers)
        self.size = HAND_SIZES[players]
        self.actions = 0
        self.cursor: dict[Viewer, int] = dict.fromkeys(self.viewers, 0)
        self.passed: dict[int, set[Card]] = {}
        self.played: list[Card] = []
        self.views: dict[Viewer, dict] = {}
        self.full_log_due = False

        deck = deck_for(players)
        self.rng.shuffle(deck)
        options = {"deck": [card_json(card) for card in deck]} if fixed_deck else {}
        created = create_game(client, "trick_and_snipers", humans(players), options)
        self.id = created["id"]
        self.tokens = tokens_of(created)
        assert sorted(self.tokens) == self.seats
        # Nobody knows any card yet from the creating response: it is a spectator's view.
        self.assert_hides(None, created, "POST /games")
        assert "you" not in created

        if fixed_deck:  # seat 0 gets the first hand-size cards, and so on; the rest is left over
            self.dealt = {s: set(deck[s * self.size : (s + 1) * self.size]) for s in self.seats}
        else:
            self.dealt = {}
        for seat in self.seats:
            first = self.get(f"/games/{self.id}", seat)
            hand = cards_of(first["you"]["hand"])
            if fixed_deck:
                assert hand == self.dealt[seat], f"seat {seat} was not dealt its slice of the deck"
            else:
                self.dealt[seat] = hand
            self.knowledge.learn(seat, hand)
            self.assert_hides(seat, first, "the first GET /games/{id} after the deal")
        everyone = [card for hand in self.dealt.values() for card in hand]
        assert all(len(hand) == self.size for hand in self.dealt.values())
        assert len(set(everyone)) == len(everyone) == players * self.size
        self.leftover = set(deck_for(players)) - set(everyone)
        assert len(self.leftover) == len(deck_for(players)) - players * self.size > 0
        self.hands = {seat: set(hand) for seat, hand in self.dealt.items()}

    # --- requests -------------------------------------------------------------------------

    def get(self, path: str, viewer: Viewer) -> dict:
        response = self.client.get(path, headers=headers_for(self.tokens, viewer))
        assert response.status_code == 200, (path, who(viewer), response.get_json())
        return response.get_json()

    def post_action(self, seat: int | None, action: dict):
        return self.client.post(
            f"/games/{self.id}/actions", json=action, headers=headers_for(self.tokens, seat)
        )

    def all_events(self, viewer: Viewer) -> list[dict]:
        events: list[dict] = []
        while True:
            page = self.get(f"/games/{self.id}/events?after={len(events)}&limit=50", viewer)
            events += page["events"]
            if len(events) >= page["version"] or not page["events"]:
                break
        assert [event["version"] for event in events] == list(range(1, len(events) + 1))
        return events

    # --- the check ------------------------------------------------------------------------

    def assert_hides(self, viewer: Viewer, body, where: str, also=()) -> None:
        leaks = self.knowledge.unknown_shown(viewer, body, also)
        assert not leaks, (
            f"{where} shows {who(viewer)} {len(leaks)} card(s) it may not know "
            f"after {self.actions} action(s): "
            + "; ".join(f"{card[0]} {card[1]} at {path}" for path, card in leaks[:10])
        )

    def check_every_viewer(self) -> None:
        full_log = self.actions % FULL_LOG_EVERY == 0 or self.full_log_due
        self.full_log_due = False
        for viewer in self.viewers:
            view = self.get(f"/games/{self.id}", viewer)
            self.assert_hides(viewer, view, "GET /games/{id}")
            self.views[viewer] = view
            if viewer is not None:
                assert cards_of(view["you"]["hand"]) == self.hands[viewer], "the model drifted"
            version = view["version"]
            page = self.get(f"/games/{self.id}/events?after={self.cursor[viewer]}", viewer)
            self.assert_hides(viewer, page, f"GET /games/{{id}}/events?after={self.cursor[viewer]}")
            if page["events"]:
                self.cursor[viewer] = page["events"][-1]["version"]
            replay = self.get(f"/games/{self.id}/replay?version={version}", viewer)
            self.assert_hides(viewer, replay, f"GET /games/{{id}}/replay?version={version}")
            if full_log:
                self.check_full_log(viewer)
        # A replay of an earlier moment, for someone, may not show more than they know now.
        viewer = self.rng.choice(self.viewers)
        earlier = self.rng.randint(1, self.views[None]["version"])
        replay = self.get(f"/games/{self.id}/replay?version={earlier}", viewer)
        self.assert_hides(viewer, replay, f"GET /games/{{id}}/replay?version={earlier}")

    def check_full_log(self, viewer: Viewer) -> None:
        """The whole log hides what it must, and shows the redacted forms in its place."""
        events = self.all_events(viewer)
        self.assert_hides(viewer, events, "GET /games/{id}/events (the whole log)")
        received = len(self.passed) == self.players
        for event in events:
            data, kind = event["data"], event["type"]
            if kind == "HandDealt":
                if data["seat"] == viewer:
                    assert cards_of(data["cards"]) == self.dealt[viewer]
                else:
                    assert data == {"seat": data["seat"], "count": self.size}, event
            elif kind == "DeckSealed":
                assert data == {"round": 1}, event
            elif kind == "FixedDecksChosen":
                assert data == {"decks": 1}, event
            elif kind == "CardsPassed":
                if data["seat"] == viewer:
                    assert cards_of(data["cards"]) == self.passed[viewer]
                else:
                    assert data == {"seat": data["seat"], "count": PASS_COUNT}, event
            elif kind == "CardsReceived":
                assert received, "cards arrived before every seat had passed"
                if viewer in (data["seat"], data["from_seat"]):
                    assert cards_of(data["cards"]) == self.passed[data["from_seat"]]
                else:
                    redacted = {"seat": data["seat"], "from_seat": data["from_seat"]}
                    assert data == {**redacted, "count": PASS_COUNT}, event
        dealt = [e for e in events if e["type"] == "HandDealt"]
        assert len(dealt) == self.players
        hidden = [e for e in dealt if "cards" not in e["data"]]
        assert len(hidden) == self.players - (viewer is not None)
        assert [e["type"] for e in events].count("DeckSealed") == 1
        if self.fixed_deck:
            assert [e["type"] for e in events].count("FixedDecksChosen") == 1

    def check_illegal_actions(self, actor: int) -> None:
        """Refused actions answer with problem bodies that hide what the caller may not know."""
        view = self.views[None]
        attempts: list[tuple[int | None, dict]] = [(None, {"type": "play_card", "card": None})]
        if view["phase"] == "passing":
            done = [seat for seat in self.seats if seat in self.passed]
            if done:
                seat = self.rng.choice(done)
                cards = self.rng.sample(sorted(self.hands[seat]), PASS_COUNT)
                attempts.append((seat, {"type": "pass_cards", "cards": cards}))
            seat = self.rng.choice(self.seats)
            attempts.append((seat, {"type": "play_card", "card": min(self.hands[seat])}))
        else:
            others = [seat for seat in self.seats if seat != actor and self.hands[seat]]
            if others:
                seat = self.rng.choice(others)
                card = self.rng.choice(sorted(self.hands[seat]))
                attempts.append((seat, {"type": "play_card", "card": card}))
            gone = sorted(set(self.played) | self.passed[actor])
            attempts.append((actor, {"type": "play_card", "card": self.rng.choice(gone)}))
            template = self.views[actor]["you"]["legal_actions"][0]
            unplayable = sorted(self.hands[actor] - cards_of(template["cards"]))
            if unplayable:
                card = self.rng.choice(unplayable)
                attempts.append((actor, {"type": "play_card", "card": card}))
        for seat, action in attempts:
            named = [action["card"]] if action.get("card") else action.get("cards", [])
            body = {**action}
            if "card" in body:
                body["card"] = None if body["card"] is None else card_json(body["card"])
            if "cards" in body:
                body["cards"] = [card_json(card) for card in body["cards"]]
            response = self.post_action(seat, body)
            expected = (401, "unauthorized") if seat is None else (409, "illegal-action")
            problem = response.get_json()
            assert (response.status_code, problem.get("code")) == expected, (action, problem)
            assert response.mimetype == PROBLEM
            where = f"the {response.status_code} refusing {who(seat)}'s {action}"
            self.assert_hides(seat, problem, where, also=named)

    # --- playing --------------------------------------------------------------------------

    def act(self) -> dict:
        seat = self.rng.choice(self.views[None]["to_act"])
        self.check_illegal_actions(seat)
        template = self.rng.choice(self.views[seat]["you"]["legal_actions"])
        if self.avoid_points and template["type"] == "play_card":
            template = {**template, "cards": self.pointless(template["cards"])}
        action = action_from(template, self.rng)
        response = self.post_action(seat, action)
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.actions += 1
        if action["type"] == "pass_cards":
            cards = cards_of(action["cards"])
            self.passed[seat] = cards
            self.hands[seat] -= cards
            if len(self.passed) == self.players:  # G3: every choice takes effect at once
                for receiver in self.seats:
                    arriving = self.passed[(receiver - 1) % self.players]
                    self.hands[receiver] |= arriving
                    self.knowledge.learn(receiver, arriving)
                self.full_log_due = True
        else:
            card = card_of(action["card"])
            self.hands[seat].discard(card)
            self.played.append(card)
            self.knowledge.make_public([card])  # played face up: everyone saw it
        if body["game"]["status"] != "finished":
            self.assert_hides(seat, body, f"the response to {who(seat)}'s {action['type']}")
        return body

    def pointless(self, cards: list[dict]) -> list[dict]:
        """The legal cards that neither snipe (T4) nor bring a 7 (T5), if there are any: such
        games last longer, down to the last tricks and to hands running out (T6)."""
        trick = [play["card"] for play in self.views[None]["trick"]]
        led = trick[0]["suit"] if trick else None
        winning = max((card["rank"] for card in trick if card["suit"] == led), default=None)

        def scores(card: dict) -> bool:
            snipe = winning is not None and card["suit"] != led and card["rank"] + winning == 13
            return snipe or card["rank"] == 7

        return [card for card in cards if not scores(card)] or cards

    def play_to_the_end(self, limit: int = 300) -> dict:
        """Check every viewer after every action; once finished, everything may show."""
        for _ in range(limit):
            self.check_every_viewer()
            assert self.views[None]["status"] == "active"
            if self.act()["game"]["status"] == "finished":
                return self.get(f"/games/{self.id}", None)
        raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "deal, play",
    [
        ("fixed deck", "any legal card"),
        ("fixed deck", "cards that score no point"),
        ("server shuffle", "any legal card"),
    ],
)
def test_no_seat_and_no_spectator_ever_sees_a_card_they_may_not_know_until_the_game_ends(
    client, players, deal, play
):
    game = WatchedGame(
        client,
        players,
        seed=f"{players}-{deal}-{play}",
        fixed_deck=deal == "fixed deck",
        avoid_points=play == "cards that score no point",
    )
    final = game.play_to_the_end()
    assert final["status"] == "finished" and final["result"]["winners"]

    # Once the game is finished the redaction lifts, for everyone: the left-over cards show.
    for viewer in (None, game.rng.choice(game.seats)):
        view = game.get(f"/games/{game.id}", viewer)
        assert cards_of(view["leftover"]) == game.leftover
        events = game.all_events(viewer)
        shown = {card for _, card in cards_shown(events)}
        assert game.leftover <= shown, "the finished game's events still hide the left-overs"
        assert shown == set(deck_for(players))
        for event in events:
            data = event["data"]
            if event["type"] == "HandDealt":
                assert cards_of(data["cards"]) == game.dealt[data["seat"]]
            elif event["type"] == "DeckSealed":
                assert cards_of(data["deck"]) == set(deck_for(players)) and data["salt"]
            elif event["type"] == "CardsPassed":
                assert cards_of(data["cards"]) == game.passed[data["seat"]]
            elif event["type"] == "CardsReceived":
                assert cards_of(data["cards"]) == game.passed[data["from_seat"]]
            elif event["type"] == "FixedDecksChosen":
                assert [cards_of(deck) for deck in data["decks"]] == [set(deck_for(players))]


def test_passed_cards_stay_with_the_passer_until_the_last_seat_has_passed(client):
    game = WatchedGame(client, 4, seed="passing", fixed_deck=True)
    game.check_every_viewer()
    for _ in range(3):
        game.act()
        game.check_every_viewer()
        for viewer in game.viewers:
            view = game.views[viewer]
            assert view["phase"] == "passing"
            assert [s["has_passed"] for s in view["seats"]] == [
                s in game.passed for s in game.seats
            ]
            if viewer is not None:
                mine = view["you"]["passed_cards"]
                if viewer in game.passed:
                    assert cards_of(mine) == game.passed[viewer]
                else:
                    assert mine is None
                assert view["you"]["received_cards"] is None
            game.check_full_log(viewer)
    last = game.act()
    assert last["game"]["phase"] == "playing"
    arrived = [e for e in last["events"] if e["type"] == "CardsReceived"]
    assert len(arrived) == 4
    for event in arrived:  # the last passer sees what it gave and what it got, counts otherwise
        shown = "cards" in event["data"]
        assert shown == (last["game"]["you"]["seat"] in (event["seat"], event["data"]["from_seat"]))
    game.check_every_viewer()
    for viewer in game.viewers:
        game.check_full_log(viewer)
