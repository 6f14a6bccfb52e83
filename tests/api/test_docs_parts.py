"""The parts of docs/ that come from the game registry are what `make docs` writes: each game's
guides and rulings page (written once, in the game's folder; a game with no rulings page gets
one written from what it registers) and the glossary, and the table of the games in
docs/rules.md. A game registered later gets its rows without a hand edit."""

from __future__ import annotations

import dataclasses

import pytest

from api.docs_parts import RULES, drift, games_table, guide_files, render_rules, rulings_files
from api.web.guides import guide_named
from domain.games import GAME_TYPES
from tests.fifth_game.high_card import GAME as HIGH_CARD


def test_the_docs_hold_exactly_what_make_docs_writes_from_the_registry() -> None:
    assert not drift(GAME_TYPES.values()), "docs/ drifted from the game registry: run make docs"


def test_the_guides_in_the_docs_are_the_ones_the_page_serves() -> None:
    files = guide_files(GAME_TYPES.values())
    assert {f"{game}.{lang}.md" for game in GAME_TYPES for lang in ("en", "fr")} < set(files)
    assert {"glossary.en.md", "glossary.fr.md"} < set(files)
    for name, text in files.items():
        assert guide_named(name) == text, name


def test_a_game_registered_later_gets_its_guide_and_its_row() -> None:
    files = guide_files([HIGH_CARD])
    assert files["high_card.en.md"].startswith("# High Card\n") and "high_card.fr.md" in files
    with_rulings = dataclasses.replace(HIGH_CARD, package="domain.games.st_patrick")
    row = games_table([with_rulings], files).splitlines()[2]
    assert row.startswith("| High Card (`high_card`, 2-2 players) |") and "[S1-S10]" in row


def test_a_game_with_no_rulings_page_gets_one_written_from_what_it_registers() -> None:
    page = rulings_files([HIGH_CARD])["high_card.md"]
    assert page.startswith("# High Card (`high_card`, 2 players)\n")
    assert "| `play_card` |" in page and "| `TrickTaken` | derived |" in page
    assert "| `CardPlayed` | choice |" in page


def test_a_hand_edit_of_the_games_table_is_caught_and_undone() -> None:
    text = RULES.read_text(encoding="utf-8")
    edited = text.replace("3-4 players", "3-6 players")
    assert edited != text and render_rules(edited, GAME_TYPES.values()) == text
    with pytest.raises(ValueError, match="markers"):
        render_rules(text.replace("<!-- <<< make docs: games -->", ""), GAME_TYPES.values())
