"""Trick & Snipers scoring: who gets a trick's point (T5) and when and how the game ends (T6)."""

from __future__ import annotations

from domain.games.trick_and_snipers.events import GameEnded, TrickWon
from domain.games.trick_and_snipers.state import POINT_RANK, POINTS_TO_WIN
from domain.kit.ranking import Ranks, by_final_figures
from domain.shared.tricks import Trick, highest_of_led, trick_cards


def trick_result(trick: Trick, last_sniper: int | None) -> TrickWon:
    """T5: one point at most, to the last sniper, else to the winner if the trick holds a 7."""
    winning = highest_of_led(trick)
    assert winning is not None  # a complete trick always has its lead
    cards = trick_cards(trick)
    point_to = last_sniper
    if point_to is None and any(card.rank == POINT_RANK for card in cards):
        point_to = winning.seat
    return TrickWon(seat=winning.seat, cards=cards, point_to=point_to, face_up=point_to is not None)


def game_end(
    points: tuple[int, ...], tricks: tuple[int, ...], hands_empty: bool
) -> GameEnded | None:
    """T6: 2 points end the game at once; otherwise, with empty hands, most points then most
    tricks wins, and seats still tied share the victory."""
    reached = [seat for seat, score in enumerate(points) if score >= POINTS_TO_WIN]
    if reached:
        winners = tuple(reached)  # one point per trick: only one seat can get there first
    elif hands_empty:
        best = max(zip(points, tricks, strict=True))
        winners = tuple(s for s, key in enumerate(zip(points, tricks, strict=True)) if key == best)
    else:
        return None
    losers = tuple(seat for seat in range(len(points)) if seat not in winners)
    final = {
        str(seat): {"victory_points": points[seat], "tricks_won": tricks[seat]}
        for seat in range(len(points))
    }
    return GameEnded(winners=winners, losers=losers, final=final)


def ranking(ended: GameEnded, players: int) -> Ranks:
    """G7 by T6's order: victory points, then tricks won (the seat that reached 2 points has
    the most, alone)."""
    return by_final_figures(ended, players, ("victory_points", "tricks_won"))
