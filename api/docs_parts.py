"""The parts of docs/ written from the game registry: `make docs` (`python -m api.docs_parts
--write`) rewrites them, and a test fails when they drift.

- docs/rules/guides/: every registered game's guide in each language, from the game's folder
  (or the `guide` it gives build_game), and the glossary, as the web client serves them
  (api/web/guides.py): the same text in both places, written once.
- docs/rules/<id>.md: every registered game's rulings page, from its folder (`rulings.md`), or
  written from what the game registers when it has none (api/web/guides.py).
- docs/rules.md: the table of the games, between `<!-- >>> make docs: games -->` and
  `<!-- <<< make docs: games -->`; a game's rulings are the `| X1 |` rows of its page's tables.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from api.web.guides import LANGUAGES, game_guide, game_rulings, glossary
from domain.kit.game_type import GameType

DOCS = Path(__file__).resolve().parents[1] / "docs"
RULINGS = DOCS / "rules"
GUIDES = RULINGS / "guides"
RULES = DOCS / "rules.md"
PART = re.compile(
    r"(?P<start><!-- >>> make docs: games -->\n).*?(?P<end><!-- <<< make docs: games -->\n)",
    re.DOTALL,
)
LANGUAGE_NAMES = {"en": "English", "fr": "français"}


def guide_files(games: Iterable[GameType]) -> dict[str, str]:
    """File name in docs/rules/guides/ -> its text."""
    files = {f"glossary.{lang}.md": glossary(lang) or "" for lang in LANGUAGES}
    for game in games:
        for lang in LANGUAGES:
            text = game_guide(game, lang)
            if text is not None:
                files[f"{game.id}.{lang}.md"] = text
    return files


def rulings_files(games: Iterable[GameType]) -> dict[str, str]:
    """File name in docs/rules/ -> its text: each game's rulings page."""
    return {f"{game.id}.md": game_rulings(game) for game in games}


def rulings(game: GameType) -> str:
    """ "S1-S10": the first and the last ruling of the game's rulings page, or "rulings"."""
    found = re.findall(r"^\| *([A-Z]\d+) *\|", game_rulings(game), re.MULTILINE)
    return f"{found[0]}-{found[-1]}" if found else "rulings"


def games_table(games: Iterable[GameType], guides: Mapping[str, str]) -> str:
    rows = ["| game | how to play | rulings |", "|---|---|---|"]
    for game in games:
        links = ", ".join(
            f"[{LANGUAGE_NAMES[lang]}](rules/guides/{game.id}.{lang}.md)"
            for lang in LANGUAGES
            if f"{game.id}.{lang}.md" in guides
        )
        players = f"{game.min_players}-{game.max_players}"
        rows.append(
            f"| {game.name} (`{game.id}`, {players} players) | {links} "
            f"| [{rulings(game)}](rules/{game.id}.md) |"
        )
    return "\n".join(rows) + "\n"


def render_rules(text: str, games: Iterable[GameType]) -> str:
    """docs/rules.md with its games table rewritten for these games."""
    games = list(games)
    table = games_table(games, guide_files(games))
    written, count = PART.subn(lambda m: m["start"] + table + m["end"], text)
    if count != 1:
        raise ValueError("docs/rules.md has no games table between its make docs markers")
    return written


def drift(games: Iterable[GameType]) -> list[str]:
    """The generated files that differ from what the registry gives (or are not generated)."""
    games = list(games)
    differing = _differing(GUIDES, guide_files(games)) + _differing(RULINGS, rulings_files(games))
    rules = RULES.read_text(encoding="utf-8")
    return differing + (["docs/rules.md"] if render_rules(rules, games) != rules else [])


def _differing(folder: Path, wanted: Mapping[str, str]) -> list[str]:
    present = {path.name for path in folder.glob("*.md")}
    return [
        str((folder / name).relative_to(DOCS.parent))
        for name in sorted(set(wanted) | present)
        if name not in wanted
        or name not in present
        or (folder / name).read_text(encoding="utf-8") != wanted[name]
    ]


def write(games: Iterable[GameType]) -> None:
    games = list(games)
    for folder, wanted in ((GUIDES, guide_files(games)), (RULINGS, rulings_files(games))):
        for path in folder.glob("*.md"):
            if path.name not in wanted:
                path.unlink()  # a page no registered game has any more
        for name, text in wanted.items():
            (folder / name).write_text(text, encoding="utf-8")
    RULES.write_text(render_rules(RULES.read_text(encoding="utf-8"), games), encoding="utf-8")


def main(argv: list[str]) -> int:
    from domain.games import GAME_TYPES

    if "--write" in argv:
        write(GAME_TYPES.values())
        return 0
    if differing := drift(GAME_TYPES.values()):
        said = f"{', '.join(differing)} differ from the game registry: run make docs"
        print(said, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
