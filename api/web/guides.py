"""The "How to play" guides, in Markdown: each game's from its own folder (`guide.<lang>.md`
beside its `__init__.py`, read as package data), else the `guide` it gives build_game; and the
glossary of every game's terms, which the web client keeps (`static/play/guides/`).

The page serves them (/play/guides/<name>) and `make docs` copies them into docs/rules/guides/
(api/docs_parts.py): one text, two places.
"""

from __future__ import annotations

import inspect
import re
from importlib import resources
from pathlib import Path

from domain.games import GAME_TYPES
from domain.kit.game_type import GameType
from domain.kit.origins import event_origin

LANGUAGES = ("en", "fr")
GLOSSARY = Path(__file__).resolve().parent / "static" / "play" / "guides"
NAME = re.compile(r"(?P<subject>\w+)\.(?P<lang>[a-z]{2})\.md")


def game_guide(game: GameType, lang: str) -> str | None:
    """The game's guide in `lang`: its folder's file, else the guide it gives build_game (one
    text for every language), else None."""
    if game.package:
        written = resources.files(game.package) / f"guide.{lang}.md"
        if written.is_file():
            return written.read_text(encoding="utf-8")
    if game.guide:
        return f"# {game.name}\n\n{inspect.cleandoc(game.guide)}\n"
    return None


def game_rulings(game: GameType) -> str:
    """The game's rulings page, for developers: its folder's `rulings.md`, else a page written
    from what the game registers (its actions, its events and where each comes from)."""
    if game.package:
        written = resources.files(game.package) / "rulings.md"
        if written.is_file():
            return written.read_text(encoding="utf-8")
    return described_rulings(game)


def described_rulings(game: GameType) -> str:
    players = str(game.min_players)
    if game.max_players != game.min_players:
        players += f"-{game.max_players}"
    lines = [
        f"# {game.name} (`{game.id}`, {players} players)",
        "",
        "Its folder has no rulings page of its own (`rulings.md`): this page is written from what",
        "the game registers. How to play it: its guides, in guides/ beside this page.",
        "",
        "## Actions",
        "",
        "| action | what it does |",
        "|---|---|",
        *(f"| `{name}` | {_about(game, name)} |" for name in game.commands),
        "",
        "## Events",
        "",
        "| event | where it comes from (docs/audit.md) |",
        "|---|---|",
        *(f"| `{name}` | {event_origin(game, name)} |" for name in game.events),
    ]
    return "\n".join(lines) + "\n"


def _about(game: GameType, action: str) -> str:
    about = game.actions_about.get(action)
    return about.text.replace("|", "\\|") if about and about.text else ""


def glossary(lang: str) -> str | None:
    path = GLOSSARY / f"glossary.{lang}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def guide_named(name: str) -> str | None:
    """`<game>.<lang>.md` (a registered game's guide) or `glossary.<lang>.md`; None: none such."""
    named = NAME.fullmatch(name)
    if named is None:
        return None
    subject, lang = named["subject"], named["lang"]
    if subject == "glossary":
        return glossary(lang)
    game = GAME_TYPES.get(subject)
    return None if game is None else game_guide(game, lang)
