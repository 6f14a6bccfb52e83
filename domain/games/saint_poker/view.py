"""What a seat (or a spectator) may see of a Saint Poker game, as JSON-ready dicts.

Never shown before the end: other hands, committed river cards and chosen reveals before every
seat has chosen (G3), and the deck not yet turned.
"""

from __future__ import annotations

from typing import Any

from domain.games.saint_poker.state import (
    REVEAL_COUNT,
    RankedHand,
    State,
    on_the_table,
    picker,
    sort_cards,
    to_act,
)
from domain.kit.cards import cards_json
from domain.kit.game_view import game_view, you_json


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if not 0 <= seat < state.players:
        return []
    return _templates(state, seat, cards_json(sort_cards(state.hands[seat])))


def _templates(state: State, seat: int, hand: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    if state.phase == "committing":
        return [{"type": "commit_river_card", "cards": list(hand)}]
    if state.phase == "revealing":
        return [{"type": "reveal_cards", "count": REVEAL_COUNT, "cards": list(hand)}]
    return [{"type": "pick_up", "cards": cards_json(on_the_table(state))}]


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    public = {
        "seats": [_seat_json(state, s) for s in range(state.players)],
        "river": cards_json(state.river),
        "future_river": cards_json(state.future_river),
        "revealed": [cards_json(cards) for cards in state.revealed],
        "deck_count": len(state.deck),
        "discarded_count": len(state.discarded),  # the cards are in the RoundEnded events
        "ranking": _ranking_json(state),
        "pickup_order": list(state.pickup_order),
        "picker": picker(state),
    }
    return game_view(
        state,
        seat,
        to_act(state),
        public,
        lambda s: _you(state, s),
        lambda: revealed_at_end(state),
    )


def revealed_at_end(state: State) -> dict[str, Any]:
    """The cards of the deck not turned (yet, or ever), in the order they would be."""
    return {"deck": cards_json(state.deck)}


def _seat_json(state: State, seat: int) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "seat": seat,
        "points": state.points[seat],
        "hand_count": len(state.hands[seat]),
    }
    # G3: *that* a seat has chosen, never what.
    if state.phase == "committing":
        figures["has_committed"] = state.committed[seat] is not None
    if state.phase == "revealing":
        figures["has_revealed"] = state.chosen[seat] is not None
    return figures


def _ranking_json(state: State) -> dict[str, Any] | None:
    if state.ranked_round is None:
        return None
    return {"round": state.ranked_round, "hands": [_hand_json(hand) for hand in state.ranking]}


def _hand_json(hand: RankedHand) -> dict[str, Any]:
    return {
        "seat": hand.seat,
        "place": hand.place,
        "name": hand.name,
        "strength": hand.strength,
        "points": hand.points,
    }


def _you(state: State, seat: int) -> dict[str, Any]:
    committed, chosen = state.committed[seat], state.chosen[seat]
    hand = cards_json(sort_cards(state.hands[seat]))
    return you_json(
        seat,
        hand,
        _templates(state, seat, hand),
        committed_card=None if committed is None else committed.to_json(),
        chosen_cards=None if chosen is None else cards_json(chosen),
    )
