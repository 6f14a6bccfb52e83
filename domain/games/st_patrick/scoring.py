"""Round scoring (S6, S8) and the end of the game with its tie-breaks (S9)."""

from __future__ import annotations

from domain.games.st_patrick.events import GameEnded, RoundScored
from domain.games.st_patrick.state import (
    SACRIFICE_LOSS,
    TOTAL_BITES,
    State,
    bites,
    snakes_won,
)
from domain.kit.decider import Event, IllegalAction
from domain.kit.ranking import Ranks, by_final_figures


def life_changes(
    bites_taken: tuple[int, ...], relics: tuple[int, ...], special: bool
) -> tuple[tuple[int, ...], int | None]:
    """Each seat's life change and the big sacrificer, if any.
    S6: in the special hunt nobody loses; bites <= relics gains 1.
    S8: lose max(0, bites - relics), unless one seat took all 15 bites: it loses nothing and
    every other seat loses 3 whatever its relics."""
    pairs = list(zip(bites_taken, relics, strict=True))
    if special:
        return tuple(int(b <= r) for b, r in pairs), None
    sacrificer = next((s for s, b in enumerate(bites_taken) if b == TOTAL_BITES), None)
    if sacrificer is not None:
        changes = tuple(0 if s == sacrificer else -SACRIFICE_LOSS for s in range(len(pairs)))
        return changes, sacrificer
    return tuple(-max(0, b - r) for b, r in pairs), None


def score_round(state: State, kind: str) -> list[Event]:
    if state.phase != "scoring" or kind != "scoring":
        raise IllegalAction(f"no {kind!r} work is due now")
    taken = bites(state)
    changes, sacrificer = life_changes(taken, state.relics, state.special_hunt)
    life = tuple(have + change for have, change in zip(state.life, changes, strict=True))
    scored = RoundScored(
        round=state.round,
        bites=taken,
        relics=state.relics,
        changes=changes,
        life=life,
        big_sacrifice=sacrificer,
        special=state.special_hunt,
    )
    if min(life) > 0:  # S9: the game ends only after a round's scoring leaves someone <= 0
        return [scored]
    return [scored, game_end(life, state.relics, taken, snakes_won(state))]


def game_end(
    life: tuple[int, ...],
    relics: tuple[int, ...],
    bites_taken: tuple[int, ...],
    snakes: tuple[int, ...],
) -> GameEnded:
    """S9: highest life; then most relics held at the end of the last round; then most snake
    cards among the tricks won in it; seats still tied share the victory."""
    keys = list(zip(life, relics, snakes, strict=True))
    best = max(keys)
    winners = tuple(seat for seat, key in enumerate(keys) if key == best)
    losers = tuple(seat for seat in range(len(keys)) if seat not in winners)
    final = {
        str(seat): {
            "life": life[seat],
            "relics": relics[seat],
            "bites": bites_taken[seat],
            "snakes": snakes[seat],
        }
        for seat in range(len(keys))
    }
    return GameEnded(winners=winners, losers=losers, final=final)


def ranking(ended: GameEnded, players: int) -> Ranks:
    """G7 by S9's order: life, then relics held, then snakes won in the last round."""
    return by_final_figures(ended, players, ("life", "relics", "snakes"))
