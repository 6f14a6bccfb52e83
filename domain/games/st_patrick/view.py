"""What a seat (or a spectator) may see of a St Patrick game, as JSON-ready dicts.

Never shown: other hands, passed cards before they arrive, hands passed on a curse to anyone but
the giver and the taker, the deck. Public: life, relics, bites, the bite cards face up before
each trick winner, the relics in the middle, the curses of the round, the trick being played.
"""

from __future__ import annotations

from typing import Any

from domain.games.st_patrick.hunt import playable
from domain.games.st_patrick.state import (
    MAX_PASS,
    State,
    bites,
    sort_cards,
    to_act,
)
from domain.kit.cards import cards_json
from domain.kit.game_view import game_view, you_json
from domain.shared.passing import choices_json
from domain.shared.tricks import plays_json


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if not 0 <= seat < state.players or seat not in to_act(state):
        return []
    if state.phase == "choosing_pass_count":
        return [{"type": "choose_pass_count", "min": 0, "max": MAX_PASS}]
    if state.phase == "passing":
        hand = cards_json(sort_cards(state.hands[seat]))
        return [{"type": "pass_cards", "count": state.pass_count, "cards": hand}]
    if state.phase == "relics":
        take = {"type": "take_relics", "min": 1, "max": state.relics_left}
        return [take, {"type": "pass_relics"}]
    return [{"type": "play_card", "cards": cards_json(sort_cards(playable(state, seat)))}]


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    choosing = state.phase == "choosing_pass_count"
    public = {
        "seats": [_seat_json(state, s, taken) for s, taken in enumerate(bites(state))],
        "pass_count": None if choosing or state.phase == "dealing" else state.pass_count,
        "pass_chooser": state.pass_chooser,
        "relics_left": state.relics_left,
        "curses": state.curses,
        "special_hunt": state.special_hunt,
        "trick": plays_json(state.trick),
        "leader": state.leader,
        "trick_number": max(1, state.tricks_played + (state.phase == "playing")),
        "last_trick": _last_trick(state),
    }
    return game_view(state, seat, to_act(state), public, lambda s: _you(state, s))


def _seat_json(state: State, seat: int, taken: int) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "seat": seat,
        "life": state.life[seat],
        "relics": state.relics[seat],
        "bites": taken,
        "hand_count": len(state.hands[seat]),
        "tricks_won": state.tricks_won[seat],
        # S7: the bite cards of the tricks a seat won lie face up before it all round.
        "bite_cards": cards_json(state.bite_cards[seat]),
    }
    if state.phase == "passing":
        figures["has_passed"] = state.passed[seat] is not None  # G3: *that* it chose, not what
    return figures


def _last_trick(state: State) -> dict[str, Any] | None:
    if not state.last_trick:
        return None
    winner = state.leader  # the winner of the last trick leads (or led) the next one
    return {
        "seat": winner,
        "winner": winner,
        "plays": plays_json(state.last_trick),
        "cards": cards_json(play.card for play in state.last_trick),
    }


def _you(state: State, seat: int) -> dict[str, Any]:
    return you_json(
        seat,
        cards_json(sort_cards(state.hands[seat])),
        legal_actions(state, seat),
        **choices_json(state, seat),
    )
