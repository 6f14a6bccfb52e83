"""Playing through the HTTP API the way an outside client would: actions built mechanically
from `you.legal_actions` templates (`action_from`, the rule of docs/api.md)."""

from __future__ import annotations

import random
import time

from domain.kit.templates import action_from_template as action_from


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create_game(client, game_type: str, seats: list[dict], options: dict | None = None, **kw):
    body = {"type": game_type, "seats": seats, "options": options or {}}
    response = client.post("/games", json=body, **kw)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def humans(count: int) -> list[dict]:
    return [{"kind": "human", "name": f"player {i}"} for i in range(count)]


def tokens_of(created: dict) -> dict[int, str]:
    return {entry["seat"]: entry["token"] for entry in created["tokens"]}


def invites_of(created: dict) -> dict[int, str]:
    return {entry["seat"]: entry["invite"] for entry in created["invites"]}


def join_body(created: dict, seat: int, name: str) -> dict:
    return {"name": name, "invite": invites_of(created)[seat]}


def play_one(client, game_id: str, seat: int, token: str, rng: random.Random) -> dict:
    mine = client.get(f"/games/{game_id}", headers=auth(token)).get_json()
    template = rng.choice(mine["you"]["legal_actions"])
    response = client.post(
        f"/games/{game_id}/actions", json=action_from(template, rng), headers=auth(token)
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play_to_end(client, game_id: str, tokens: dict[int, str], seed: int = 0, limit: int = 500):
    rng = random.Random(seed)
    for _ in range(limit):
        game = client.get(f"/games/{game_id}").get_json()
        if game["status"] == "finished":
            return game
        seat = game["to_act"][0]
        play_one(client, game_id, seat, tokens[seat], rng)
    raise AssertionError("the game did not end")


def wait_for(client, game_id: str, predicate, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = client.get(f"/games/{game_id}").get_json()
        if predicate(game):
            return game
        time.sleep(0.05)
    raise AssertionError(f"timed out; the game is at version {game['version']}: {game['to_act']}")
