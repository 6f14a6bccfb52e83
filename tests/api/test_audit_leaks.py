"""Nothing any viewer can fetch lets it confirm a hidden card offline (docs/audit.md, G3).

The audit publishes a chain head (and its signature) at any time, and every deal publishes a
commitment to its deck. Both are digests over secrets: were they computable from a guess, a
viewer could confirm its guesses of hidden cards offline (format 1 allowed exactly that: a
spectator found a Saint Poker river card before the reveal in at most 52 guesses). Here a game
of every type is played over HTTP by human seats, each choosing with the random bot from its
own view; after every step (St Patrick: see GAMES) every seat and a spectator fetch all they
can (game, new events, audit, export, replay) and the attacker of `tests.api.guessing` --
given the TRUE data of every event it sees redacted, the best guess there is -- tries to
confirm it against all of that. It must confirm nothing. A second test hands the same attacker
digests computed without the nonces, a leaked nonce or a leaked salt, and it must confirm the
hidden events at once (and nothing from a guess one card off).
"""

from __future__ import annotations

import dataclasses
import json
import random
import uuid
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api import create_app
from domain.games import GAME_TYPES
from events import outbox
from events.audit.chain import GENESIS, event_hash
from events.audit.signing import public_key_from
from events.operations.settings import Settings
from tests.api.conftest import SpecCheckingClient
from tests.api.guessing import (
    Published,
    confirmed_secrets,
    head_with_the_nonces,
    secrets_among,
    truth,
)
from tests.api.knowledge import card_json
from tests.api.play import auth, create_game, humans, tokens_of
from tests.api.test_hidden_cards import deck_for

Viewer = int | None  # a seat, or None for a spectator


@pytest.fixture(scope="module")
def private_app(settings: Settings, private_database_url: str) -> Iterator[Flask]:
    """The app on a database of this module's own: the worker process other tests start would
    score these games in the middle of a look (a look must see one moment)."""
    app = create_app(dataclasses.replace(settings, database_url=private_database_url))
    app.config["TESTING"] = True
    app.test_client_class = SpecCheckingClient  # every response held to openapi.yaml
    yield app
    app.extensions["cardroom"].pool.close()


@pytest.fixture()
def client(private_app: Flask) -> FlaskClient:
    return private_app.test_client()


def who(viewer: Viewer) -> str:
    return "a spectator" if viewer is None else f"seat {viewer}"


class WatchedGame:
    """A game of human seats played over HTTP, with all that each viewer has been shown."""

    def __init__(self, client, game_type_id: str, seed: str, options: dict | None = None) -> None:
        self.client = client
        self.game_type = GAME_TYPES[game_type_id]
        self.rng = random.Random(seed)
        self.services = client.application.extensions["cardroom"]
        self.key = public_key_from(client.get("/audit-key").get_data(as_text=True))
        players = self.game_type.min_players  # the fewest seats: the shortest games
        created = create_game(client, game_type_id, humans(players), options)
        self.id, self.tokens = created["id"], tokens_of(created)
        self.viewers: list[Viewer] = [*range(players), None]
        self.published = {viewer: Published() for viewer in self.viewers}
        self.shown: dict[Viewer, list[dict]] = {viewer: [] for viewer in self.viewers}
        self.views: dict[Viewer, dict] = {}
        self.steps = 0
        for viewer in self.viewers:  # anyone could have created it: the response counts too
            self.published[viewer].take(created)

    # --- what a viewer can fetch ----------------------------------------------------------

    def get(self, path: str, viewer: Viewer) -> TestResponse:
        headers = {} if viewer is None else auth(self.tokens[viewer])
        response = self.client.get(path, headers=headers)
        assert response.status_code == 200, (path, who(viewer), response.get_data(as_text=True))
        self.published[viewer].take(dict(response.headers))  # an ETag is published as well
        return response

    def look(self, viewer: Viewer) -> None:
        """Everything `viewer` can fetch now; the event log only from where it stopped."""
        published, shown = self.published[viewer], self.shown[viewer]
        view = self.get(f"/games/{self.id}", viewer).get_json()
        published.take(view)
        self.views[viewer] = view
        while len(shown) < view["version"]:
            page = self.get(f"/games/{self.id}/events?after={len(shown)}&limit=1000", viewer)
            events = page.get_json()["events"]
            published.take(page.get_json())
            shown += events
            assert events, "the log ends before the game's version"
        assert [event["version"] for event in shown] == list(range(1, len(shown) + 1))
        published.take_audit(self.get(f"/games/{self.id}/audit", viewer).get_json())
        export = self.get(f"/games/{self.id}/export", viewer).get_data(as_text=True)
        published.take(export)  # the raw bytes too: a digest could hide in any spelling
        for line in export.splitlines():
            published.take(json.loads(line))
        replay = self.get(f"/games/{self.id}/replay?version={view['version']}", viewer)
        published.take(replay.get_json())

    # --- the check ------------------------------------------------------------------------

    def check_every_viewer(self) -> None:
        for viewer in self.viewers:
            self.look(viewer)
        if self.views[None]["status"] == "finished":
            return  # everything shows now, by design
        true = truth(self.services.pool, self.id)
        for viewer in self.viewers:
            shown, published = self.shown[viewer], self.published[viewer]
            assert len(true) == len(shown), "the game moved while it was being read"
            head = published.heads[len(shown)]
            assert head_with_the_nonces(self.id, shown, true) == head, (
                f"the attacker's rebuilt chain misses the head for {who(viewer)} even with the "
                "nonces: it would confirm nothing for the wrong reason"
            )
            confirmed = confirmed_secrets(self.id, shown, published, true, self.key)
            confirmed += secrets_among(published, true)
            assert not confirmed, (
                f"{who(viewer)} confirms {len(confirmed)} hidden fact(s) after {self.steps}"
                f" step(s) (v{len(shown)}): " + "; ".join(confirmed[:5])
            )

    # --- playing --------------------------------------------------------------------------

    def step(self) -> None:
        """One change: a seat's action, chosen by the random bot from its own view, or the work
        nobody is to act on (scoring), done here as a worker would do it."""
        view = self.views[None]
        if not view["to_act"]:
            self.run_automatic(view["version"])
        else:
            seat = self.rng.choice(view["to_act"])
            action = self.game_type.bots["random"](self.views[seat], self.rng)
            response = self.client.post(
                f"/games/{self.id}/actions", json=action, headers=auth(self.tokens[seat])
            )
            assert response.status_code == 201, response.get_json()
            self.published[seat].take(response.get_json())
        self.steps += 1

    def run_automatic(self, version: int) -> None:
        """The work the game queued (scoring), done here as a worker's job does it: a worker
        process would add moments nobody looked at."""
        with self.services.pool.connection() as conn:
            queued = conn.execute(
                "SELECT kind FROM outbox WHERE game_id = %s AND version = %s AND done_at IS NULL",
                (self.id, version),
            ).fetchall()
        assert queued, "nobody is to act and no work is queued"
        for row in queued:
            work = outbox.decode(row["kind"])
            assert self.services.automation.run_work(uuid.UUID(self.id), version, work) == "done"

    def play_to_the_end(self, later_rounds_every: int, limit: int = 2000) -> None:
        """Check every step of round 1, then every `later_rounds_every`-th step."""
        for _ in range(limit):
            first_round = self.views.get(None, {}).get("round", 1) <= 1
            if first_round or self.steps % later_rounds_every == 0:
                self.check_every_viewer()
            else:
                for viewer in self.viewers:  # the views only, to choose the next action
                    self.views[viewer] = self.get(f"/games/{self.id}", viewer).get_json()
            if self.views[None]["status"] == "finished":
                return
            self.step()
        raise AssertionError("the game did not end")


# Each game with its fewest seats. Every step of every game is checked, but for St Patrick only
# every step of round 1, then every 4th: it runs 1 to 6 rounds (up to about 430 events) and the
# checks grow with the log, so its later rounds would take most of the minute this file may use.
GAMES = [
    pytest.param("ouroboros_trick", None, 1, id="ouroboros_trick"),
    pytest.param("trick_and_snipers", None, 1, id="trick_and_snipers"),
    pytest.param("trick_and_snipers", "fixed", 1, id="trick_and_snipers-fixed-deck"),
    pytest.param("saint_poker", None, 1, id="saint_poker"),
    pytest.param("st_patrick", None, 4, id="st_patrick"),
]


@pytest.mark.parametrize("game_type_id, deck, later_rounds_every", GAMES)
def test_no_viewer_can_confirm_a_hidden_card_from_anything_published(
    client, game_type_id: str, deck: str | None, later_rounds_every: int
) -> None:
    options = None
    if deck == "fixed":  # FixedDecksChosen: the whole deck, secret from everyone
        fixed = deck_for(3)
        random.Random(deck).shuffle(fixed)
        options = {"deck": [card_json(card) for card in fixed]}
    game = WatchedGame(client, game_type_id, seed=f"{game_type_id}-{deck}", options=options)
    game.play_to_the_end(later_rounds_every)
    assert game.views[None]["result"]["winners"]


# --- the attacker can tell: the same function, handed what a leaky server would publish -------


def chained(game_id: str, records: list[dict], chain_format: int, prev: str = GENESIS) -> str:
    """The head over `records` hashed by `chain_format` with every nonce null."""
    for record in records:
        prev = event_hash(chain_format, game_id, prev, {**record, "nonce": None})
    return prev


def leaked(kind: str, game_id: str, true: list[dict], version: int) -> Published:
    """What a server with this leak would publish besides, for the hidden event at `version`
    (the head just before it was published by the audit, rightly: a seat acted there)."""
    extra = Published()
    before = true[version - 2]["hash"]
    if kind == "a format-1 head":
        extra.values.add(chained(game_id, true[:version], 1))
    elif kind == "a format-2 head without nonces":
        extra.heads[version] = chained(game_id, true[:version], 2)
    elif kind == "an event hashed without its nonce after a true head":
        extra.values.add(chained(game_id, true[version - 1 : version], 2, prev=before))
    elif kind == "the nonce of a hidden event":
        extra.values.add(true[version - 1]["nonce"])
    elif kind == "the salt of the deal":
        extra.values.update(r["data"]["salt"] for r in true if r["type"] == "DeckSealed")
    return extra


def wrong(true: list[dict], version: int) -> list[dict]:
    """The same records but a guess one card off: the hidden event's first card, and the
    order of each sealed deck."""
    guessed = [dict(record) for record in true]
    data = guessed[version - 1]["data"]
    first = {**data["cards"][0], "rank": data["cards"][0]["rank"] % 9 + 1}
    guessed[version - 1]["data"] = {**data, "cards": [first, *data["cards"][1:]]}
    for record in guessed:
        if record["type"] == "DeckSealed":
            deck = record["data"]["deck"]
            record["data"] = {**record["data"], "deck": [deck[1], deck[0], *deck[2:]]}
    return guessed


LEAKS = [
    "a format-1 head",
    "a format-2 head without nonces",
    "an event hashed without its nonce after a true head",
    "the nonce of a hidden event",
    "the salt of the deal",
]


@pytest.mark.parametrize("kind", LEAKS)
def test_the_attacker_confirms_hidden_cards_once_a_digest_is_published_without_its_secret(
    client, kind: str
) -> None:
    game = WatchedGame(client, "trick_and_snipers", seed=kind)
    for _ in range(2):  # two of three seats pass: a spectator sees their cards as counts
        game.check_every_viewer()
        game.step()
    game.check_every_viewer()  # nothing confirmed from what the server really publishes
    shown, published = game.shown[None], game.published[None]
    true = truth(game.services.pool, game.id)
    passed = [e["version"] for e in shown if e["type"] == "CardsPassed"]
    assert len(passed) == 2 and "cards" not in shown[passed[-1] - 1]["data"]
    version = passed[-1]
    assert version - 1 in published.heads, "the head before the pass was published"

    extra = leaked(kind, game.id, true, version)
    published.values |= extra.values
    published.heads |= extra.heads
    confirmed = confirmed_secrets(game.id, shown, published, true, game.key)

    if kind == "the salt of the deal":
        committed = next(e["version"] for e in shown if e["type"] == "DealCommitted")
        assert confirmed == [f"the deck of round 1 (v{committed})"]
    else:
        assert confirmed and all(f"at v{version} " in sentence for sentence in confirmed)
    if kind in ("the nonce of a hidden event", "the salt of the deal"):
        assert secrets_among(published, true)  # caught as shown, besides
    # The leak is an oracle, not a disclosure: a guess one card off confirms nothing (which is
    # how a spectator would try the 52 cards one by one).
    assert confirmed_secrets(game.id, shown, published, wrong(true, version), game.key) == []
