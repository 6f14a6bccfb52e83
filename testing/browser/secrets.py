"""The cards a seat may not know right now, from the server's own truth.

`secret_cards(database_url, read, game_id, seat, token)` folds the game from its unredacted
events in Postgres (what the server itself holds) and returns every card that lies where this
seat cannot see:

    the other seats' hands, and what they hold face down or have chosen in secret (cards passed
    and not yet arrived, Saint Poker's committed river card and chosen reveal, Ouroboros pools),
    and every card the deal did not hand out (Trick & Snipers' left-over pile, Saint Poker's
    deck and rivers: whatever `DeckSealed` holds after the hands)

minus every card the API shows a spectator now (`GET /games/{id}` and every page of
`GET /games/{id}/events`), minus every card the seat's own view shows in its `you` object (hand,
passed_cards, received_cards, pool, committed_card, chosen_cards, legal_actions), minus every card
in the seat's own event log (`GET /games/{id}/events` with its token: e.g. the hand a St Patrick
seat handed on a curse, which it knows though it now lies in another hand). What the server
shows a caller is tested in tests/api (test_hidden_cards and others); these tests take it as
the truth of what a seat may know, and look for anything beyond it in the page.

Only meaningful during a game's first deal: St Patrick redeals every round, and a card public in
round 1's log may lie hidden in a hand in round 2, so this raises unless exactly one deal was
made (for St Patrick: round 1). Knowledge only grows during a deal, so a page captured *before*
the secret set is computed must show none of it; compute it after capturing the page.

`read(path, token)` is any GET that returns parsed JSON: `http_reader(base_url)` for a live
server, `client_reader(flask_client)` for the Flask test client.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

import psycopg
import requests

from domain.tables.table import Table
from events.folding import fold_events
from events.postgres import store
from testing.browser.cards import Card, cards_in_json

Reader = Callable[[str, str | None], Any]

# Per-seat fields of the games' states whose cards only that seat sees (or nobody, yet).
PRIVATE_FIELDS = ("hands", "passed", "committed", "chosen", "pools")
EVENTS_PAGE = 1000


class NotFirstDeal(RuntimeError):
    """secret_cards was asked about a game past its first deal (or before it)."""


def http_reader(base_url: str, timeout: float = 10.0) -> Reader:
    session = requests.Session()

    def read(path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = session.get(f"{base_url}{path}", headers=headers, timeout=timeout)
        assert response.status_code == 200, (path, response.status_code, response.text[:300])
        return response.json()

    return read


def client_reader(client) -> Reader:
    def read(path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.status_code, response.get_json())
        return response.get_json()

    return read


def server_table(database_url: str, game_id: str) -> tuple[Table, list[store.StoredEvent]]:
    """The table folded from every stored event, unredacted, and those events."""
    with psycopg.connect(database_url) as conn:
        stored = store.read_stream(conn, UUID(game_id))
    if not stored:
        raise LookupError(f"no events for game {game_id}")
    return fold_events(None, stored), stored


def hidden_cards(table: Table, stored: list[store.StoredEvent], seat: int) -> set[Card]:
    """Where the server holds cards `seat` cannot see, before subtracting what is public."""
    if table.deals_made != 1:
        raise NotFirstDeal(
            f"secret cards are computed on the first deal only (St Patrick: round 1); "
            f"this game has had {table.deals_made} deal(s)"
        )
    state = table.game
    hidden: set[Card] = set()
    for name in PRIVATE_FIELDS:
        per_seat = getattr(state, name, None)
        if per_seat is None:
            continue
        for other, held in enumerate(per_seat):
            if other != seat and held is not None:
                hidden |= _cards(held if isinstance(held, tuple) else (held,))
    hidden |= undealt(stored)
    return hidden


def undealt(stored: list[store.StoredEvent]) -> set[Card]:
    """What the last sealed deck holds beyond the hands dealt from its top."""
    sizes = [e.data["hand_sizes"] for e in stored if e.type == "DealCommitted"]
    decks = [e.data["deck"] for e in stored if e.type == "DeckSealed"]
    if not decks:
        return set()
    return {(card["suit"], card["rank"]) for card in decks[-1][sum(sizes[-1]) :]}


def all_events(read: Reader, game_id: str, token: str | None = None) -> list[dict]:
    """Every page of the event log as this caller (None: a spectator) sees it."""
    events: list[dict] = []
    while True:
        after = events[-1]["version"] if events else 0
        page = read(f"/games/{game_id}/events?after={after}&limit={EVENTS_PAGE}", token)
        events += page["events"]
        if not page["events"] or events[-1]["version"] >= page["version"]:
            return events


def known_cards(read: Reader, game_id: str, seat: int, token: str) -> set[Card]:
    """Every card the API shows the spectators, and this seat's own `you` and event log."""
    spectator_view = read(f"/games/{game_id}", None)
    spectator_log = all_events(read, game_id)
    own_view = read(f"/games/{game_id}", token)
    assert own_view.get("you", {}).get("seat") == seat, f"that token is not seat {seat}'s"
    own_log = all_events(read, game_id, token)
    shown = (spectator_view, spectator_log, own_view["you"], own_log)
    return {card for value in shown for _, card in cards_in_json(value)}


def secret_cards(database_url: str, read: Reader, game_id: str, seat: int, token: str) -> set[Card]:
    """The cards `seat` may not know now (see the module's docstring)."""
    table, stored = server_table(database_url, game_id)
    return hidden_cards(table, stored, seat) - known_cards(read, game_id, seat, token)


def round_of(database_url: str, game_id: str) -> int:
    return server_table(database_url, game_id)[0].game.round


def _cards(cards: Iterable[Any]) -> set[Card]:
    return {(card.suit, card.rank) for card in cards}
