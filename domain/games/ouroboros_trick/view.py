"""What a seat (or a spectator) may see of an Ouroboros Trick game, as JSON-ready dicts.

O6: public are hand and pool sizes, the discard pile's top card and size, and every discard as
it is made. A seat also sees its own hand and the contents of its own pool; nobody else's.
"""

from __future__ import annotations

from typing import Any

from domain.games.ouroboros_trick.state import (
    LastTrick,
    State,
    sort_cards,
    to_act,
    trick_number,
)
from domain.kit.cards import cards_json
from domain.kit.game_view import game_view, you_json
from domain.shared.tricks import card_turn as turn
from domain.shared.tricks import led_suit, playable_cards, plays_json


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if not 0 <= seat < state.players:
        return []
    hand = sort_cards(state.hands[seat])
    pending = state.pending
    if state.phase == "discarding" and pending is not None and pending.seat == seat:
        return [{"type": "discard", "count": pending.count, "cards": cards_json(hand)}]
    if turn(state) == seat:
        playable = playable_cards(hand, led_suit(state.trick))
        return [{"type": "play_card", "cards": cards_json(playable)}]
    return []


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    pending = state.pending
    public = {
        "seats": [_seat_json(state, s) for s in range(state.players)],
        "trick": plays_json(state.trick),
        "leader": state.leader,
        "trick_number": trick_number(state),
        "last_trick": _last_trick_json(state.last_trick),
        "discard_top": state.discards[-1].to_json() if state.discards else None,
        "discard_count": len(state.discards),
        "pending_discard": None
        if pending is None
        else {"seat": pending.seat, "count": pending.count},
    }
    return game_view(state, seat, to_act(state), public, lambda s: _you(state, s))


def _seat_json(state: State, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "hand_count": len(state.hands[seat]),
        "pool_count": len(state.pools[seat]),
    }


def _last_trick_json(last: LastTrick | None) -> dict[str, Any] | None:
    # Played face up, so public knowledge, though the cards now lie face down in a pool.
    if last is None:
        return None
    return {"winner": last.winner, "plays": plays_json(last.plays), "lowest": last.lowest}


def _you(state: State, seat: int) -> dict[str, Any]:
    return you_json(
        seat,
        cards_json(sort_cards(state.hands[seat])),
        legal_actions(state, seat),
        pool=cards_json(sort_cards(state.pools[seat])),  # O6: one's own pool, any time
    )
