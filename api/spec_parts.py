"""The per-game parts of openapi.yaml, written from the game registry: `make spec`
(`python -m api.spec_parts`) rewrites them, and a test fails when the file drifts.

openapi.yaml stays a hand-written file. Each generated part sits between two comment lines,
`# >>> make spec: NAME` and `# <<< make spec: NAME`, at the indentation of its keys; whatever
lies outside the markers is never touched. A game registered in domain.games needs no edit here.
"""

from __future__ import annotations

import json
import re
import sys
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

import yaml

from domain.kit.cards import Card
from domain.kit.game_type import ActionAbout, GameType
from domain.kit.origins import event_origin
from domain.tables.table import TABLE_EVENTS

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
SCHEMAS = "#/components/schemas/"
MARKER = re.compile(r"^(?P<indent> *)# >>> make spec: (?P<name>[a-z-]+)\n", re.MULTILINE)
ORIGINS = ("setup", "choice", "timeout", "deal", "derived")
WIDTH = 100

# The options every table takes (domain.tables.presence.TABLE_OPTIONS and the seed commitment): the
# same at every game and size, written once here rather than in each Create shape by hand.
TABLE_OPTION_SCHEMAS: Mapping[str, Any] = {
    "turn_seconds": {
        "description": "Seconds each seat has to act once it is waited for; absent or null, no"
        " timer (docs/leaving.md).",
        "type": ["integer", "null"],
        "minimum": 5,
        "maximum": 86400,
    },
    "max_timeouts": {
        "description": "Timeouts in a row after which the seat is treated as left (default 3).",
        "type": "integer",
        "minimum": 1,
    },
    "rated": {
        "description": "Whether the table counts towards ratings (default false). Every human"
        " seat of a rated table is a player's (`player: me`, or an open seat joined with a"
        " player key) and its bots are `random`, `basic` or `strong`.",
        "type": "boolean",
    },
    "seed_commitment": {"$ref": SCHEMAS + "SeedCommitmentId"},
}


def schema_name(game: GameType) -> str:
    """st_patrick -> StPatrick: the suffix of the game's own schemas."""
    return "".join(word.capitalize() for word in game.id.split("_"))


def ref(name: str) -> dict[str, str]:
    return {"$ref": SCHEMAS + name}


def sizes(game: GameType) -> range:
    return range(game.min_players, game.max_players + 1)


def game_type_ids(games: Iterable[GameType]) -> dict[str, Any]:
    return {"GameTypeId": {"type": "string", "enum": [game.id for game in games]}}


def suits(games: Iterable[GameType]) -> dict[str, Any]:
    every = dict.fromkeys(suit for game in games for suit in game.suits)
    return {"Suit": {"type": "string", "enum": list(every)}}


def rank(games: Iterable[GameType]) -> dict[str, Any]:
    games = list(games)
    each = "; ".join(f"{game.name} {min(game.ranks)}-{max(game.ranks)}" for game in games)
    ranks = [value for game in games for value in game.ranks]
    return {
        "description": f"By game: {each}.",
        "type": "integer",
        "minimum": min(ranks),
        "maximum": max(ranks),
    }


def queue_list(games: Iterable[GameType]) -> dict[str, Any]:
    return {"oneOf": [ref(f"JoinQueue{schema_name(game)}") for game in games]}


def queue_shapes(games: Iterable[GameType]) -> dict[str, Any]:
    return {f"JoinQueue{schema_name(game)}": _queue_shape(game) for game in games}


def _queue_shape(game: GameType) -> dict[str, Any]:
    low, high = game.min_players, game.max_players
    return {
        "title": game.name,
        "type": "object",
        "required": ["type"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": game.id},
            "players": {
                "description": f"The table sizes the player accepts (default all, {low} to"
                f" {high}).",
                "type": "array",
                "minItems": 1,
                "uniqueItems": True,
                "maxItems": len(sizes(game)),
                "items": {"type": "integer", "minimum": low, "maximum": high},
            },
            "rated": ref("QueueRated"),
            "bots_after_seconds": ref("QueueBotsAfter"),
        },
    }


def create_list(games: Iterable[GameType]) -> dict[str, Any]:
    names = [f"Create{schema_name(game)}{players}" for game in games for players in sizes(game)]
    return {"oneOf": [ref(name) for name in names]}


def create_shapes(games: Iterable[GameType]) -> dict[str, Any]:
    return {
        f"Create{schema_name(game)}{players}": _create_shape(game, players)
        for game in games
        for players in sizes(game)
    }


def _create_shape(game: GameType, players: int) -> dict[str, Any]:
    return {
        "title": f"{game.name} for {players}",
        "type": "object",
        "required": ["type", "seats"],
        "additionalProperties": False,
        "properties": {
            "type": {"const": game.id},
            "seats": {
                "type": "array",
                "minItems": players,
                "maxItems": players,
                "items": ref("SeatRequest"),
            },
            "options": {
                "type": "object",
                "additionalProperties": False,
                "properties": {**game.option_schemas(players), **TABLE_OPTION_SCHEMAS},
            },
        },
    }


def actions(games: Iterable[GameType]) -> dict[str, Any]:
    """One shape per action type; a type several games share takes the widest limits."""
    by_type: dict[str, list[GameType]] = {}
    for game in games:
        for action in game.action_types:
            by_type.setdefault(action, []).append(game)
    return {"oneOf": [_action_shape(action, of) for action, of in by_type.items()]}


def _action_shape(action: str, games: list[GameType]) -> dict[str, Any]:
    command = games[0].commands[action]
    names = [field.name for field in fields(command) if field.name != "seat"]
    hints = typing.get_type_hints(command)
    about = [game.actions_about.get(action, ActionAbout()) for game in games]
    texts = [
        f"{game.name}: {said.text}" for game, said in zip(games, about, strict=True) if said.text
    ]
    properties: dict[str, Any] = {"type": {"const": action}}
    for name in names:
        limits = [said.limits.get(name) for said in about]
        properties[name] = _field_schema(hints[name], limits)
    properties["expected_version"] = ref("ExpectedVersion")
    shape: dict[str, Any] = {"type": "object", "title": action}
    if texts:
        shape["description"] = " ".join(texts)
    return shape | {
        "required": ["type", *names],
        "additionalProperties": False,
        "properties": properties,
    }


def _field_schema(hint: Any, limits: list[tuple[int, int] | None]) -> dict[str, Any]:
    """A command's field as JSON Schema: a card, cards, or a count, within the games' limits
    (none given: at least one card, or a count from 0)."""
    if hint is Card:
        return ref("Card")
    least = min((limit[0] for limit in limits if limit), default=None)
    most = max((limit[1] for limit in limits if limit), default=None)
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[0] is Card:
        shape: dict[str, Any] = {"type": "array", "minItems": 1 if least is None else least}
        if most is not None and None not in limits:
            shape["maxItems"] = most
        return shape | {"items": ref("Card")}
    if hint is int:
        shape = {"type": "integer", "minimum": 0 if least is None else least}
        return shape | ({"maximum": most} if most is not None and None not in limits else {})
    raise TypeError(f"no JSON Schema for a command field of type {hint!r}")


def event_origins(games: Iterable[GameType]) -> dict[str, Any]:
    marked: dict[str, Any] = {}
    for game in sorted(games, key=lambda game: game.id):
        names = [*TABLE_EVENTS, *(name for name in game.events if name not in TABLE_EVENTS)]
        by_origin = {
            origin: [n for n in names if event_origin(game, n) == origin] for origin in ORIGINS
        }
        marked[game.id] = {origin: listed for origin, listed in by_origin.items() if listed}
    return {"x-event-origins": marked}


PARTS: Mapping[str, Callable[[Iterable[GameType]], dict[str, Any]]] = {
    "game-type-ids": game_type_ids,
    "suits": suits,
    "rank": rank,
    "queue-list": queue_list,
    "queue-shapes": queue_shapes,
    "create-list": create_list,
    "create-shapes": create_shapes,
    "actions": actions,
    "event-origins": event_origins,
}


def render(text: str, games: Iterable[GameType]) -> str:
    """`text` with every generated part rewritten for these games; a missing part is an error."""
    games = list(games)
    out: list[str] = []
    at, seen = 0, set[str]()
    for start in MARKER.finditer(text):
        indent, name = start["indent"], start["name"]
        end = re.compile(rf"^ *# <<< make spec: {name}\n", re.MULTILINE).search(text, start.end())
        if end is None or name not in PARTS:
            raise ValueError(f"openapi.yaml: part {name!r} is unknown or has no end marker")
        out += [text[at : start.end()], _block(PARTS[name](games), indent)]
        at, seen = end.start(), seen | {name}
    if missing := set(PARTS) - seen:
        raise ValueError(f"openapi.yaml has no marker for {sorted(missing)}")
    return "".join(out) + text[at:]


def spec_for(games: Iterable[GameType], path: Path = SPEC) -> dict[str, Any]:
    """The spec these games would have: the file with its parts rewritten, parsed."""
    loaded: dict[str, Any] = yaml.safe_load(render(path.read_text(), games))
    return loaded


# A small YAML writer in the file's own style: leaves and short mappings on one line.


def _block(mapping: Mapping[str, Any], indent: str) -> str:
    """A part's keys; a schema at the top of a part is never folded onto one line."""
    lines = (_entry(key, value, indent, fold=False) for key, value in mapping.items())
    return "".join(line + "\n" for entry in lines for line in entry)


def _entry(key: str, value: Any, indent: str, fold: bool = True) -> list[str]:
    head = f"{indent}{_scalar(key)}:"
    flow = _flow(value) if fold or not isinstance(value, Mapping) else None
    if flow is not None and len(head) + 1 + len(flow) <= WIDTH:
        return [f"{head} {flow}"]
    if isinstance(value, Mapping):
        return [head, *(line for k, v in value.items() for line in _entry(k, v, indent + "  "))]
    if isinstance(value, list):
        return [head, *(line for item in value for line in _item(item, indent + "  "))]
    return [f"{head} {_scalar(value)}"]  # a long string: one line, quoted as needed


def _item(value: Any, indent: str) -> list[str]:
    flow = _flow(value)
    if flow is not None and len(indent) + 2 + len(flow) <= WIDTH:
        return [f"{indent}- {flow}"]
    if isinstance(value, Mapping):
        lines = [line for k, v in value.items() for line in _entry(k, v, indent + "  ")]
        return [f"{indent}- {lines[0].lstrip()}", *lines[1:]]
    return [f"{indent}- {_scalar(value)}"]


def _flow(value: Any) -> str | None:
    """The value on one line, or None when it holds a mapping inside a mapping or a list."""
    if isinstance(value, Mapping):
        if any(isinstance(v, Mapping) and not _is_ref(v) for v in value.values()):
            return None
        parts = [f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()]
        return None if None in [_flow(v) for v in value.values()] else "{" + ", ".join(parts) + "}"
    if isinstance(value, list):
        if any(isinstance(item, Mapping | list) for item in value):
            return None
        return "[" + ", ".join(_scalar(item) for item in value) + "]"
    return _scalar(value)


def _is_ref(value: Mapping[str, Any]) -> bool:
    return list(value) == ["$ref"]


def _scalar(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    plain = (
        re.fullmatch(r"[A-Za-z_$][\w .,()&'`-]*", text)
        and ": " not in text
        and not text.endswith(":")
        and yaml.safe_load(text) == text
    )
    return text if plain else json.dumps(text, ensure_ascii=False)


def main(argv: list[str]) -> int:
    from domain.games import GAME_TYPES

    text = SPEC.read_text()
    written = render(text, GAME_TYPES.values())
    if "--check" in argv:
        if written != text:
            print("openapi.yaml differs from the game registry: run make spec", file=sys.stderr)
            return 1
        return 0
    SPEC.write_text(written)
    print(f"{SPEC.name}: the per-game parts of {len(GAME_TYPES)} games written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
