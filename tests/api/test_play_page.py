"""The pages for people: `/` leads to the web client and the docs, and the client is served
from the package with a policy that keeps it on this server."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from unittest.mock import patch

from api.web.client import STATIC
from domain.games import GAME_TYPES

ROOT = Path(__file__).resolve().parents[2]
GUIDES = STATIC / "guides"
VIEWS = STATIC / "games"
LANGUAGES = ("en", "fr")


def test_the_landing_page_leads_a_person_to_play_and_to_the_docs(client) -> None:
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    links = re.findall(r'href="([^"]+)"', response.get_data(as_text=True))
    assert "/play" in links and "/docs" in links


def test_the_client_page_may_load_and_call_nothing_but_this_server(client) -> None:
    response = client.get("/play")
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert "unsafe-inline" not in policy and "http" not in policy


def test_every_file_the_page_references_is_served_with_its_type(client) -> None:
    page = client.get("/play").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/play/assets/[^"]+)"', page)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for path in assets:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype in {"text/javascript", "text/css"}, path


def test_every_module_a_script_imports_exists_and_is_served(client) -> None:
    for script in [*STATIC.glob("*.js"), *VIEWS.glob("*.js")]:
        text = script.read_text(encoding="utf-8")
        names = re.findall(r'(?:from |import\()"\./([\w.]+)"', text)
        names += [f"{name}.js" for name in re.findall(r'^  \[.*?, "(\w+)", \(m', text, re.M)]
        names += re.findall(r'from "\.\./([\w.]+)"', text)  # a game's view module
        for name in names:  # static imports, dynamic ones, and app.js's pages
            assert client.get(f"/play/assets/{name}").status_code == 200, (script.name, name)
    for lang in LANGUAGES:  # i18n.js imports text.<lang>.js by name
        response = client.get(f"/play/assets/text.{lang}.js")
        assert response.status_code == 200 and response.mimetype == "text/javascript", lang


def _keys(path: Path) -> list[str]:
    """The top-level keys of a text.<lang>.js file: each is a line `  "key": …`."""
    return re.findall(r'^  "([\w.-]+)":', path.read_text(encoding="utf-8"), re.MULTILINE)


def test_the_french_text_has_every_english_string_and_no_other() -> None:
    english, french = _keys(STATIC / "text.en.js"), _keys(STATIC / "text.fr.js")
    assert len(english) > 250 and len(set(english)) == len(english)
    assert sorted(english) == sorted(french), set(english) ^ set(french)


def test_every_word_a_game_s_view_module_says_is_the_game_s_or_the_page_s() -> None:
    shared = set(_keys(STATIC / "text.en.js"))
    for module in VIEWS.glob("*.js"):
        words = GAME_TYPES[module.stem].words
        said = set(re.findall(r'(?:\bt|said)\("([\w.-]+)"', module.read_text(encoding="utf-8")))
        assert len(said) > 3, module.name
        for lang in LANGUAGES:
            missing = sorted(key for key in said if key not in words[lang] and key not in shared)
            assert not missing, (module.name, lang, missing)


def test_no_game_s_word_is_in_the_page_s_own_text() -> None:
    """A game's words are its own: the shared text says none of them (a game may still
    override a shared key, such as a log line every game has, with its own)."""
    shared = set(_keys(STATIC / "text.en.js"))
    for game in GAME_TYPES.values():
        english = game.words.get("en", {})
        own = {key for key in english if key.split(".")[0] in {"game", "phase", "why"}}
        assert not own & shared, (game.id, sorted(own & shared))
        assert not {f"game.{game.id}", f"about.{game.id}"} & shared


def test_every_game_has_a_guide_in_each_language_served_as_markdown(client) -> None:
    for game in GAME_TYPES:
        for lang in LANGUAGES:
            response = client.get(f"/play/guides/{game}.{lang}.md")
            assert response.status_code == 200, (game, lang)
            assert response.content_type == "text/markdown; charset=utf-8"
            assert response.get_data(as_text=True).startswith("# ")


def test_the_glossary_defines_the_same_terms_in_both_languages() -> None:
    def terms(lang: str) -> list[str]:
        text = (GUIDES / f"glossary.{lang}.md").read_text(encoding="utf-8")
        return re.findall(r"^- \*\*.+?\*\*: .+ <!-- ([\w-]+) -->$", text, re.MULTILINE)

    assert len(terms("en")) >= 30 and terms("en") == terms("fr")


def test_the_terms_the_table_explains_are_in_the_glossary() -> None:
    glossary = (GUIDES / "glossary.en.md").read_text(encoding="utf-8")
    used = set()
    for script in [STATIC / "games.js", STATIC / "board.js", *VIEWS.glob("*.js")]:
        text = script.read_text(encoding="utf-8")
        used |= set(re.findall(r'term\("([\w-]+)"', text))
        used |= set(re.findall(r'fact\("\w+", "([\w-]+)"', text))
        for terms in re.findall(r"(?:const [A-Z_]+|export const \w+) = \{(.*?)\};", text):
            used |= set(re.findall(r': "([\w-]+)"', terms))  # phase, flag and card terms
    # The figures by each seat, with their terms, come from the games (GET /game-types).
    used |= {term for game in GAME_TYPES.values() for _, term in game.figures}
    assert len(used) > 20
    missing = sorted(key for key in used if f"<!-- {key} -->" not in glossary)
    assert not missing, missing


def test_a_game_with_a_guide_string_and_no_guide_file_gets_its_string(client) -> None:
    game = GAME_TYPES["st_patrick"]
    folderless = dataclasses.replace(game, id="folderless", package="", guide="A *small* game.")
    with patch.dict(GAME_TYPES, {"folderless": folderless}):
        served = client.get("/play/guides/folderless.fr.md")
    assert served.status_code == 200
    assert served.get_data(as_text=True) == "# St Patrick\n\nA *small* game.\n"
    assert client.get("/play/guides/folderless.fr.md").status_code == 404  # once unregistered


def test_a_guide_is_revalidated_by_its_etag(client) -> None:
    first = client.get("/play/guides/st_patrick.en.md")
    etag = {"If-None-Match": first.headers["ETag"]}
    again = client.get("/play/guides/st_patrick.en.md", headers=etag)
    assert first.headers["Cache-Control"] == "no-cache" and again.status_code == 304


def test_no_shared_script_of_the_page_names_a_game() -> None:
    """A game's own drawing is in its view module (games/<id>.js), its words in its folder:
    the page's shared scripts name no registered game, so a game is added without them."""
    ids = re.compile("|".join(rf"\b{re.escape(game)}\b" for game in GAME_TYPES))
    naming = [
        f"{script.name}:{number}: {line.strip()}"
        for script in sorted(STATIC.glob("*.js"))
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1)
        if ids.search(line)
    ]
    assert not naming, naming


def test_a_game_s_view_module_is_served_and_published_only_where_there_is_one(client) -> None:
    published = {game["id"]: game["view"] for game in client.get("/game-types").get_json()}
    modules = {path.stem for path in VIEWS.glob("*.js")}
    assert modules and modules <= set(GAME_TYPES), modules - set(GAME_TYPES)
    for game, view in published.items():
        assert view == (f"/play/assets/games/{game}.js" if game in modules else None)
        if view:
            served = client.get(view)
            assert served.status_code == 200 and served.mimetype == "text/javascript"


def test_no_file_of_the_repository_points_to_the_shared_api_md() -> None:
    """The HTTP contract in the project's words is docs/api.md; nothing names another."""
    tracked = [
        path
        for pattern in ("*.md", "*.py", "*.js", "*.yaml", "*.toml", "Makefile")
        for path in ROOT.rglob(pattern)
        if not {".venv", "node_modules", ".git"} & set(path.parts)
    ]
    naming = [
        str(path.relative_to(ROOT))
        for path in tracked
        if re.search(r"(?<![\w/])API\.md", path.read_text(encoding="utf-8", errors="replace"))
        and path.name != "test_play_page.py"
    ]
    assert not naming, naming
    assert (ROOT / "docs" / "api.md").is_file()


def test_no_script_refers_to_another_origin(client) -> None:
    for path in STATIC.rglob("*"):
        if path.suffix in {".js", ".css", ".html"}:
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path.name


def test_a_path_outside_the_client_is_a_problem_not_a_file(client) -> None:
    outside = ("/play/assets/../play.py", "/play/assets/%2e%2e/__init__.py")
    not_assets = ("/play/assets/nope.js", "/play/assets/index.html")  # the page is /play
    for path in (*outside, *not_assets):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.mimetype == "application/problem+json", path


def test_the_docs_page_loads_swagger_ui_from_this_server_only(client) -> None:
    response = client.get("/docs")
    assert (
        response.status_code == 200
        and "default-src 'self'" in response.headers["Content-Security-Policy"]
    )
    page = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert not [a for a in assets if "//" in a], assets  # no other origin, not even a CDN
    for path in (a for a in assets if a.startswith("/docs/assets/")):
        asset = client.get(path)
        assert asset.status_code == 200 and asset.content_length > 0, path
    assert client.get("/docs/assets/index.html").status_code == 404
