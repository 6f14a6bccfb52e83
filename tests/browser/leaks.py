"""The check that a page shows no card its seat may not know: in the DOM (text, aria-labels,
titles, data attributes), in `window.cardroom.memory()`, and in every JSON body it received."""

from __future__ import annotations

from dataclasses import dataclass

from testing.browser.cards import Card, cards_in_html, cards_in_json
from testing.browser.pages import Browsing
from testing.browser.secrets import http_reader, secret_cards


@dataclass(frozen=True)
class SecrecyCheck:
    game_id: str
    seat: int
    round: int
    secret: frozenset[Card]
    cards_seen: int  # cards found in the page, its memory and its responses (any, not only secret)


def assert_no_secret_card_shown(
    browsing: Browsing, base_url: str, database_url: str, game_id: str
) -> SecrecyCheck:
    """Captures the page first, then asks the server's truth which cards this browser's seat
    may not know (knowledge only grows during a deal, so nothing secret now was known before),
    and fails naming every secret card found and where."""
    html = browsing.html()
    memory = browsing.memory()
    bodies = browsing.record.json_bodies()
    entry = browsing.seat_entry(game_id)
    assert entry is not None, f"{browsing.name} holds no seat at {game_id}"
    read = http_reader(base_url)
    round_number = read(f"/games/{game_id}", None)["round"]
    assert round_number == 1, "the secret cards are only checked in round 1 (one deal)"
    secret = secret_cards(database_url, read, game_id, entry["seat"], browsing.credential(game_id))
    found = [(f"DOM {where}", card) for where, card in cards_in_html(html)]
    found += [(f"memory() {where}", card) for where, card in cards_in_json(memory)]
    for response, body in bodies:
        found += [(f"{response} {where}", card) for where, card in cards_in_json(body)]
    leaks = [(where, card) for where, card in found if card in secret]
    assert not leaks, (
        f"{browsing.name}, seat {entry['seat']} of {game_id}, shows {len({c for _, c in leaks})}"
        f" card(s) it may not know:\n"
        + "\n".join(f"  {card[0]} {card[1]} in {where}" for where, card in leaks[:20])
    )
    return SecrecyCheck(game_id, entry["seat"], round_number, frozenset(secret), len(found))
