"""Finished games for the tests that look back at one: a table of basic bots only, created
through the API and played to its end by the worker, and a way to change one of its stored
events behind the server's back (the tampering the replay's badge must notice)."""

from __future__ import annotations

import time

import psycopg
import requests

from domain.games import GAME_TYPES

FINISH_TIMEOUT = 120.0  # seconds for bots alone to play a game to its end
PLAYERS = {game.id: game.min_players for game in GAME_TYPES.values()}  # the quickest to finish


def finished_bot_game(base_url: str, game_type: str = "trick_and_snipers") -> dict:
    """A game of `game_type` played by basic bots to its end; its final view (as a spectator)."""
    seats = [{"kind": "bot", "level": "basic"}] * PLAYERS[game_type]
    created = requests.post(
        f"{base_url}/games", json={"type": game_type, "seats": seats, "options": {}}, timeout=10
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    deadline = time.monotonic() + FINISH_TIMEOUT
    while time.monotonic() < deadline:
        game = requests.get(f"{base_url}/games/{game_id}", timeout=10).json()
        if game["status"] == "finished":
            return game
        time.sleep(0.2)
    raise AssertionError(f"{game_type} {game_id} did not finish within {FINISH_TIMEOUT:.0f} s")


def tamper_with_an_event(database_url: str, game_id: str, event_type: str = "CardPlayed") -> int:
    """Changes the data of the game's first `event_type` event in the database, leaving its
    stored hash, the head and its signature as they were; returns that event's version."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT version, data FROM events WHERE game_id = %s AND type = %s "
            "ORDER BY version LIMIT 1",
            (game_id, event_type),
        ).fetchone()
        assert row is not None, f"{game_id} has no {event_type}"
        version, data = row
        card = data["card"]
        data["card"] = {**card, "rank": card["rank"] % 9 + 1}  # another card, same suit
        conn.execute(
            "UPDATE events SET data = %s WHERE game_id = %s AND version = %s",
            (psycopg.types.json.Jsonb(data), game_id, version),
        )
    return int(version)
