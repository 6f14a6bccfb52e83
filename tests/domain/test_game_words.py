"""A game's words (its folder's words.py, given to build_game): what a client says of it, in
English and in French, as text a client fills in (docs/frontend.md, "A game's words"). Every
registered game names itself, says the same keys in both languages with the same arguments, and
writes only placeholders a client understands."""

from __future__ import annotations

import re

import pytest

from domain.games import GAME_TYPES

GAMES = sorted(GAME_TYPES)
# {0} {name} {a.b}, {x:format}, {x|one|other}: what i18n.js fills in; nothing else in braces.
PLACEHOLDER = re.compile(r"\{(\w+(?:\.\w+)*)(?::[\w.]+|(?:\|[^{}|]*)+)?\}")


def arguments(text: str) -> set[str]:
    return {name for name in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_says_the_same_keys_in_english_and_french(game_id: str) -> None:
    words = GAME_TYPES[game_id].words
    assert set(words) == {"en", "fr"}
    assert len(words["en"]) >= 10 and sorted(words["en"]) == sorted(words["fr"])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_names_itself_in_english_as_the_api_does(game_id: str) -> None:
    game = GAME_TYPES[game_id]
    assert game.words["en"]["game.name"] == game.name and game.words["fr"]["game.name"]
    assert game.words["en"]["game.about"] and game.words["fr"]["game.about"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_s_words_hold_only_placeholders_a_client_fills_in(game_id: str) -> None:
    for lang, words in GAME_TYPES[game_id].words.items():
        for key, text in words.items():
            assert isinstance(text, str) and text, (lang, key)
            left = PLACEHOLDER.sub("", text)
            assert "{" not in left and "}" not in left, (lang, key, text)


@pytest.mark.parametrize("game_id", GAMES)
def test_both_languages_of_a_key_use_the_same_arguments(game_id: str) -> None:
    words = GAME_TYPES[game_id].words
    differing = {
        key: (arguments(text), arguments(words["fr"][key]))
        for key, text in words["en"].items()
        if arguments(text) != arguments(words["fr"][key])
    }
    assert not differing


def test_the_placeholder_check_refuses_what_a_client_would_show_as_is() -> None:
    for broken in ("{0", "{a b}", "{x:}", "{x|{y}|z}", "}"):
        assert "{" in PLACEHOLDER.sub("", broken) or "}" in PLACEHOLDER.sub("", broken), broken
    assert PLACEHOLDER.sub("", "{0} {seat:who} {count|card|cards} {a.b:card.the}") == "   "
