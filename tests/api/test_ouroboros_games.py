"""Ouroboros Trick over HTTP: a whole game on a fixed deck with discards, a human against bots
on the workers, and no seat or spectator ever seeing another seat's hand or pool."""

from __future__ import annotations

import random

import pytest

from tests.api.knowledge import cards_of, cards_shown
from tests.api.play import auth, create_game, humans, play_one, play_to_end, tokens_of, wait_for

SUITS = ("red", "yellow", "green", "blue")
TOP_RANK = {3: 9, 4: 12, 5: 15}  # O1


def card(text: str) -> dict:
    return {
        "suit": {"r": "red", "y": "yellow", "g": "green", "b": "blue"}[text[0]],
        "rank": int(text[1:]),
    }


def deck_dealing(players: int, named: list[list[str]]) -> list[dict]:
    """A whole deck in deal order: each seat's named cards first, then filler up to 12."""
    hands = [[card(text) for text in texts] for texts in named]
    rest = [
        {"suit": suit, "rank": rank}
        for suit in SUITS
        for rank in range(1, TOP_RANK[players] + 1)
        if not any({"suit": suit, "rank": rank} in hand for hand in hands)
    ]
    deck: list[dict] = []
    for hand in hands:
        deck += hand + rest[: 12 - len(hand)]
        rest = rest[12 - len(hand) :]
    return deck


def act(client, game_id: str, token: str, action: dict) -> dict:
    response = client.post(f"/games/{game_id}/actions", json=action, headers=auth(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_humans_play_a_whole_game_on_a_fixed_deck_discarding_by_the_api(client):
    deck = deck_dealing(4, [["r10"], ["r7"], ["r8"], ["r9"]])
    created = create_game(client, "ouroboros_trick", humans(4), {"deck": deck, "first_leader": 0})
    game_id, tokens = created["id"], tokens_of(created)
    assert created["phase"] == "playing" and created["leader"] == 0
    assert [(s["hand_count"], s["pool_count"]) for s in created["seats"]] == [(12, 0)] * 4
    for seat in range(4):
        mine = client.get(f"/games/{game_id}", headers=auth(tokens[seat])).get_json()
        assert cards_of(mine["you"]["hand"]) == cards_of(deck[seat * 12 : (seat + 1) * 12])
        assert mine["you"]["pool"] == []
    # The rulebook's first example: A's red 10 takes red 7, 8 and 9, and A owes 7 cards.
    for seat, text in enumerate(["r10", "r7", "r8", "r9"]):
        result = act(client, game_id, tokens[seat], {"type": "play_card", "card": card(text)})
    assert [e["type"] for e in result["events"]][-2:] == ["TrickWon", "DiscardAwaited"]
    game = result["game"]
    assert game["phase"] == "discarding" and game["to_act"] == [0]
    assert game["pending_discard"] == {"seat": 0, "count": 7}
    mine = client.get(f"/games/{game_id}", headers=auth(tokens[0])).get_json()
    (template,) = mine["you"]["legal_actions"]
    assert template["type"] == "discard" and template["count"] == 7
    assert cards_of(mine["you"]["pool"]) == cards_of(map(card, ["r10", "r7", "r8", "r9"]))
    chosen = template["cards"][:7]
    result = act(client, game_id, tokens[0], {"type": "discard", "cards": chosen})
    assert result["events"][0]["type"] == "CardsDiscarded"
    assert result["events"][0]["data"] == {"seat": 0, "cards": chosen, "forced": False}
    assert result["game"]["discard_top"] == chosen[-1]
    assert result["game"]["discard_count"] == 7
    assert result["game"]["seats"][0] == {**result["game"]["seats"][0], "hand_count": 4}

    final = play_to_end(client, game_id, tokens, seed=7)
    assert final["status"] == "finished" and final["to_act"] == []
    figures = final["result"]["final"]
    empty = [int(s) for s, f in figures.items() if f["hand_count"] == f["pool_count"] == 0]
    assert final["result"]["losers"] == empty and empty
    assert set(final["result"]["winners"]) == {0, 1, 2, 3} - set(empty)
    events = client.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    audit = client.get(f"/games/{game_id}/audit").get_json()
    assert audit["state_matches"] and audit["deals_verified"] is not False


def test_a_human_plays_by_the_api_while_the_bots_move_on_the_workers(client, worker):
    seats = [{"kind": "bot", "level": "basic"}, {"kind": "human", "name": "Uma"}]
    seats.append({"kind": "bot", "level": "random"})
    game = create_game(client, "ouroboros_trick", seats)
    token, rng = tokens_of(game)[1], random.Random(5)
    while True:
        state = wait_for(
            client, game["id"], lambda g: g["status"] == "finished" or 1 in g["to_act"]
        )
        if state["status"] == "finished":
            break
        play_one(client, game["id"], 1, token, rng)
    mine = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()
    assert mine["result"] == state["result"] and mine["result"]["losers"]


def test_a_table_of_bots_plays_itself_to_the_end_on_the_workers(client, worker):
    bots = [{"kind": "bot", "level": level} for level in ("basic", "random", "basic", "random")]
    game = create_game(client, "ouroboros_trick", bots)
    final = wait_for(client, game["id"], lambda g: g["status"] == "finished", timeout=60)
    assert final["result"]["losers"]


# --- hidden cards -----------------------------------------------------------------------------


class Watch:
    """What each viewer may see, modelled from the public log (O6): a seat's own pool is the
    cards of the tricks it won since it last took its pool; nobody else's pool or hand shows."""

    def __init__(self, client, game_id: str, tokens: dict[int, str]) -> None:
        self.client, self.id, self.tokens = client, game_id, tokens
        self.viewers: list[int | None] = [*tokens, None]

    def get(self, path: str, viewer: int | None) -> dict:
        headers = {} if viewer is None else auth(self.tokens[viewer])
        response = self.client.get(path, headers=headers)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def log(self, viewer: int | None) -> list[dict]:
        return self.get(f"/games/{self.id}/events?limit=1000", viewer)["events"]

    def check(self) -> None:
        public = self.log(None)
        played = {
            c for e in public if e["type"] == "CardPlayed" for c in cards_of([e["data"]["card"]])
        }
        discarded = {
            c for e in public if e["type"] == "CardsDiscarded" for c in cards_of(e["data"]["cards"])
        }
        for viewer in self.viewers:
            view = self.get(f"/games/{self.id}", viewer)
            log = self.log(viewer)
            you = view.pop("you", None)
            table_cards = {c for _, c in cards_shown(view)}
            shown_public = cards_of(p["card"] for p in view["trick"])
            if view["last_trick"]:
                shown_public |= cards_of(p["card"] for p in view["last_trick"]["plays"])
            if view["discard_top"]:
                shown_public |= cards_of([view["discard_top"]])
            assert table_cards <= shown_public <= played | discarded
            assert all(
                set(s) == {"seat", "name", "kind", "hand_count", "pool_count"}
                for s in view["seats"]
            )
            for event in log:
                mine = event["data"].get("seat") == viewer
                if event["type"] in ("HandDealt", "PoolTaken") and not mine:
                    assert set(event["data"]) == {"seat", "count"}, event
                if event["type"] == "DeckSealed":
                    assert set(event["data"]) == {"round"}
            if viewer is None:
                continue
            dealt = next(e for e in log if e["type"] == "HandDealt" and e["data"]["seat"] == viewer)
            known = cards_of(dealt["data"]["cards"]) | played | discarded
            assert {c for _, c in cards_shown(you)} <= known
            assert cards_of(you["pool"]) == self.own_pool(log, viewer)

    @staticmethod
    def own_pool(log: list[dict], seat: int) -> set:
        pool: set = set()
        for event in log:
            if event["data"].get("seat") != seat:
                continue
            if event["type"] == "TrickWon":
                pool |= cards_of(event["data"]["cards"])
            elif event["type"] == "PoolTaken":
                assert cards_of(event["data"]["cards"]) == pool
                pool = set()
        return pool


@pytest.mark.parametrize("players, fixed", [(3, False), (4, True), (5, True)])
def test_no_seat_sees_another_seats_hand_or_pool(client, players, fixed):
    options = {"deck": deck_dealing(players, [[]] * players)} if fixed else {}
    created = create_game(client, "ouroboros_trick", humans(players), options)
    watch = Watch(client, created["id"], tokens_of(created))
    rng = random.Random(players)
    for _ in range(400):
        game = client.get(f"/games/{created['id']}").get_json()
        if game["status"] == "finished":
            break
        watch.check()
        seat = game["to_act"][0]
        play_one(client, created["id"], seat, watch.tokens[seat], rng)
    assert game["status"] == "finished"
    # once the game is over every event is public: every dealt hand shows to a spectator
    log = watch.log(None)
    dealt = [cards_of(e["data"]["cards"]) for e in log if e["type"] == "HandDealt"]
    assert len(set().union(*dealt)) == 12 * players
