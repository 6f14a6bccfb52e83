"""`GET /games/{id}/replay?version=N`: once a game is over nothing of it is secret, so the replay
of any version shows every seat's hand as it stood then, to anyone; before the end it shows each
caller only what that caller may see (a seat its own hand, a spectator none).

Humans play each game by the API (the round scoring and later deals run on the worker). The
expected hands come from each seat's own view, read at the versions the game stood at."""

from __future__ import annotations

import random

import pytest

from tests.api.knowledge import cards_shown
from tests.api.play import auth, create_game, humans, play_one, tokens_of, wait_for

GAMES = ["st_patrick", "ouroboros_trick", "trick_and_snipers", "saint_poker"]
PLAYERS = 3


def own_hands(client, game_id: str, tokens: dict[int, str]) -> tuple[int, dict[int, list]]:
    """Each seat's hand as its own view shows it, and the version they all show."""
    views = {
        s: client.get(f"/games/{game_id}", headers=auth(t)).get_json() for s, t in tokens.items()
    }
    versions = {view["version"] for view in views.values()}
    assert len(versions) == 1, "the game moved while its seats were read"
    return versions.pop(), {seat: view["you"]["hand"] for seat, view in views.items()}


def play_recording_hands(
    client, game_id: str, tokens: dict[int, str], moves: int | None = None
) -> dict[int, dict[int, list]]:
    """Play (to the end, or `moves` actions), keeping each seat's own hand at every version
    the game waited at for a seat."""
    rng, held = random.Random(game_id), {}
    for _ in range(3000 if moves is None else moves):
        game = wait_for(client, game_id, lambda g: g["status"] == "finished" or g["to_act"])
        if game["status"] == "finished":
            return held
        version, hands = own_hands(client, game_id, tokens)
        held[version] = hands
        seat = game["to_act"][0]
        play_one(client, game_id, seat, tokens[seat], rng)
    assert moves is not None, "the game did not end"
    return held


def replay(client, game_id: str, version: int, headers: dict | None = None) -> dict:
    response = client.get(f"/games/{game_id}/replay?version={version}", headers=headers or {})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def some_of(versions, count: int = 5) -> list[int]:
    """Versions spread over the game: early, middle, late."""
    ordered = sorted(versions)
    return [ordered[len(ordered) * k // (count + 1)] for k in range(1, count + 1)]


def hands_in(body: dict) -> dict[int, list]:
    return {entry["seat"]: entry["hand"] for entry in body["seats"] if "hand" in entry}


@pytest.mark.parametrize("game_type", GAMES)
def test_a_finished_games_replay_shows_every_seats_hand_as_it_stood_then(client, worker, game_type):
    # Given a game played to its end, each seat's own hand noted along the way
    created = create_game(client, game_type, humans(PLAYERS))
    game_id, tokens = created["id"], tokens_of(created)
    held = play_recording_hands(client, game_id, tokens)
    assert client.get(f"/games/{game_id}").get_json()["status"] == "finished"
    for version in some_of(held):
        for headers in ({}, auth(tokens[1])):
            # When anyone replays a version from its middle
            body = replay(client, game_id, version, headers)
            # Then every seat's entry has the hand that seat's own view showed then
            assert body["version"] == version and body["status"] == "active"
            assert hands_in(body) == held[version], (version, headers)
            assert all(len(e["hand"]) == e["hand_count"] for e in body["seats"])
        # And a seat still gets its own block, as then
        assert replay(client, game_id, version, auth(tokens[2]))["you"]["hand"] == held[version][2]


@pytest.mark.parametrize("game_type", GAMES)
def test_an_unfinished_games_replay_shows_no_other_seats_hand(client, worker, game_type):
    # Given a game under way, not over: 8 moves cannot end one (Trick & Snipers, the quickest,
    # needs its 3 passes and 2 whole tricks for a seat's 2 points)
    created = create_game(client, game_type, humans(PLAYERS))
    game_id, tokens = created["id"], tokens_of(created)
    held = play_recording_hands(client, game_id, tokens, moves=8)
    game = client.get(f"/games/{game_id}").get_json()
    assert game["status"] == "active"
    callers: dict[str, dict] = {"a spectator": {}}
    callers |= {f"seat {seat}": auth(token) for seat, token in tokens.items()}
    for version in some_of(held, 3):
        # A card in a hand may lie face up too (a Saint Poker reveal): those are no secret.
        public = {card for _, card in cards_shown(replay(client, game_id, version))}
        for who, headers in callers.items():
            # When it replays a version of it
            body = replay(client, game_id, version, headers)
            # Then no seat's entry carries a hand, and only the caller's own hand shows
            assert hands_in(body) == {}, who
            you = body.get("you", {})
            assert you.get("hand", []) == held[version].get(you.get("seat"), [])
            shown = {card for path, card in cards_shown(body) if not path.startswith("$.you")}
            for seat, hand in held[version].items():
                secret = {(card["suit"], card["rank"]) for card in hand} - public
                assert not secret & shown, (who, seat)
