"""What a seat (or a spectator) may see of a Trick & Snipers game, as JSON-ready dicts.

Never shown before the end: other hands, passed cards before they arrive, the left-over pile.
"""

from __future__ import annotations

from typing import Any

from domain.games.trick_and_snipers.state import (
    PASS_COUNT,
    State,
    WonTrick,
    sort_cards,
    to_act,
    trick_number,
)
from domain.kit.cards import cards_json
from domain.kit.game_view import game_view, you_json
from domain.shared.passing import choices_json
from domain.shared.tricks import card_turn as turn
from domain.shared.tricks import led_suit, playable_cards, plays_json


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if not 0 <= seat < state.players:
        return []
    hand = sort_cards(state.hands[seat])
    if state.phase == "passing" and state.passed[seat] is None:
        return [{"type": "pass_cards", "count": PASS_COUNT, "cards": cards_json(hand)}]
    if turn(state) == seat:
        playable = playable_cards(hand, led_suit(state.trick))
        return [{"type": "play_card", "cards": cards_json(playable)}]
    return []


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    public = {
        "seats": [_seat_json(state, s) for s in range(state.players)],
        "trick": plays_json(state.trick),
        "leader": state.leader,
        "trick_number": trick_number(state),
        "last_trick": _won_json(state.won[-1]) if state.won else None,
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
    """T1: the cards never dealt stay hidden until the game ends."""
    return {"leftover": cards_json(sort_cards(state.leftover))}


def _seat_json(state: State, seat: int) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "seat": seat,
        "victory_points": state.victory_points[seat],
        "tricks_won": state.tricks_won[seat],
        "hand_count": len(state.hands[seat]),
        # T5: scoring tricks lie face up, so their cards stay public; others only count.
        "face_up_tricks": [
            cards_json(play.card for play in won.plays)
            for won in state.won
            if won.winner == seat and won.face_up
        ],
    }
    if state.phase == "passing":
        figures["has_passed"] = state.passed[seat] is not None  # G3: *that* it chose, not what
    return figures


def _won_json(won: WonTrick) -> dict[str, Any]:
    return {
        "seat": won.winner,  # as in the TrickWon event
        "plays": plays_json(won.plays),
        "cards": cards_json(play.card for play in won.plays),
        "winner": won.winner,
        "point_to": won.point_to,
        "face_up": won.face_up,
    }


def _you(state: State, seat: int) -> dict[str, Any]:
    return you_json(
        seat,
        cards_json(sort_cards(state.hands[seat])),
        legal_actions(state, seat),
        **choices_json(state, seat),
    )
