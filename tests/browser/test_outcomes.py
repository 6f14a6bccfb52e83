"""Outcomes explained: the page says why a trick went where it did (the snipe, the trump, the
highest card), why a round scored what it did, and which rule or tiebreak decided the game. The
explanations are read from events; here they are asked of the page's own module (outcomes.js)
for events made to show each case."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

EXPLAIN = """async ([lang, gameType, events]) => {
  const i18n = await import('/play/assets/i18n.js');
  const { explain } = await import('/play/assets/outcomes.js');
  await i18n.useLanguage(lang);
  const numbered = events.map((e, i) => ({ version: i + 1, seat: null, ...e }));
  return explain(gameType, numbered, numbered.length - 1, (s) => `S${s}`).join(' ');
}"""


def card(suit: str, rank: int) -> dict:
    return {"suit": suit, "rank": rank}


def played(seat: int, suit: str, rank: int, snipe: bool = False) -> dict:
    return {"type": "CardPlayed", "data": {"seat": seat, "card": card(suit, rank), "snipe": snipe}}


def won(**data) -> dict:
    return {"type": "TrickWon", "data": data}


def ended(winners: list[int], final: dict) -> dict:
    losers = [int(s) for s in final if int(s) not in winners]
    return {"type": "GameEnded", "data": {"winners": winners, "losers": losers, "final": final}}


TRICK_CARDS = [card("red", 7), card("blue", 6), card("red", 9)]
CASES = [
    pytest.param(  # the point goes to the sniper, not to the trick's winner
        "en",
        "trick_and_snipers",
        [
            played(0, "red", 7),
            played(1, "blue", 6, snipe=True),
            played(2, "red", 9),
            won(seat=2, cards=TRICK_CARDS, point_to=1, face_up=True),
        ],
        [
            "S2 won the trick with the highest card of the led suit, the 9 of red",
            "S1 sniped: the 6 of blue on the 7 of red",
            "The point goes to S1, the last sniper",
        ],
        id="snipe",
    ),
    pytest.param(
        "fr",
        "trick_and_snipers",
        [
            played(0, "red", 7),
            played(1, "red", 2),
            played(2, "red", 9),
            won(seat=2, cards=TRICK_CARDS, point_to=2, face_up=True),
        ],
        [
            "S2 remporte le pli avec la plus forte carte de la couleur demandée, le 9 rouge",
            "Le pli contient un 7 et personne n'a fait de snipe : S2",
        ],
        id="taken-seven",
    ),
    pytest.param(  # of equal trumps the one played last wins; the lowest rank is the discard
        "en",
        "ouroboros_trick",
        [
            played(0, "red", 5),
            played(1, "yellow", 9),
            played(2, "blue", 9),
            won(
                seat=2, cards=[card("red", 5), card("yellow", 9), card("blue", 9)], discard_count=5
            ),
        ],
        [
            "S2 won the trick with the 9 of blue: of equal trumps, the one played last wins",
            "Its lowest rank is 5: S2 must discard 5 cards",
        ],
        id="trump",
    ),
    pytest.param(
        "en",
        "st_patrick",
        [
            {
                "type": "RoundScored",
                "data": {
                    "round": 2,
                    "bites": [15, 0, 0],
                    "relics": [0, 4, 2],
                    "changes": [0, -3, -3],
                    "life": [14, 9, 12],
                    "big_sacrifice": 0,
                    "special": False,
                },
            }
        ],
        ["The big sacrifice: S0 took all 15 bites", "S1: 0 bites − 4 relics → loses 3, 9 life"],
        id="big-sacrifice",
    ),
    pytest.param(  # tied on life: relics decide
        "fr",
        "st_patrick",
        [
            ended(
                [1],
                {
                    "0": {"life": 4, "relics": 2, "bites": 3, "snakes": 2},
                    "1": {"life": 4, "relics": 5, "bites": 1, "snakes": 0},
                    "2": {"life": -1, "relics": 0, "bites": 9, "snakes": 6},
                },
            )
        ],
        ["Égalité à 4 points de vie : on départage aux reliques"],
        id="life-tie",
    ),
    pytest.param(  # the hands ran out tied on victory points: the most tricks won decides
        "en",
        "trick_and_snipers",
        [
            ended(
                [0],
                {
                    "0": {"victory_points": 1, "tricks_won": 5},
                    "1": {"victory_points": 1, "tricks_won": 3},
                    "2": {"victory_points": 0, "tricks_won": 4},
                },
            )
        ],
        ["The hands ran out", "Tied at 1 victory point: the tiebreak is the most tricks won"],
        id="points-tie",
    ),
    pytest.param(
        "en",
        "ouroboros_trick",
        [
            ended(
                [0, 2],
                {
                    "0": {"hand_count": 3, "pool_count": 1},
                    "1": {"hand_count": 0, "pool_count": 0},
                    "2": {"hand_count": 5, "pool_count": 0},
                },
            )
        ],
        ["S1 ran out of cards (no hand and an empty pool) and lost"],
        id="out-of-cards",
    ),
]


def test_each_outcome_is_explained(open_page):
    browsing = open_page("desktop")
    browsing.goto("")
    browsing.page.wait_for_selector("#game-types li[data-type]")
    wrong = []
    for case in CASES:
        lang, game_type, events, expected = case.values
        said = browsing.page.evaluate(EXPLAIN, [lang, game_type, events])
        missing = [part for part in expected if part not in said]
        if missing:
            wrong.append((case.id, missing, said))
    assert not wrong, wrong
