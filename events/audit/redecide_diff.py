"""A recorded event against the one the rules give: the first field that differs, in words.

Values must be the same JSON, as the hash chain hashes it: `true` is not `1`, `1.0` is not `1`
(which Python's `==` would take as equal).
"""

from __future__ import annotations

from typing import Any

from domain.kit.codec import canonical_json, to_json
from domain.kit.decider import Event

SHOWN = 60  # characters of a value quoted in a message (a deck runs to thousands)


def difference(record: dict[str, Any], event: Event) -> str | None:
    """None when the record is the event: type, seat, data and visible_to."""
    name = type(event).__name__
    if record["type"] != name:
        return f"the log has {record['type']}, the rules give {name}"
    if not same(record["seat"], event.actor()):
        return f"{name} seat {show(record['seat'])}, the rules give {show(event.actor())}"
    data = to_json(event)
    if not same(record["data"], data):
        return f"{name} {_data_difference(record['data'], data)}"
    visible = event.visible_to()
    rules_visible = None if visible is None else list(visible)
    if not same(record["visible_to"], rules_visible):
        return (
            f"{name} visible_to {show(record['visible_to'])}, the rules give {show(rules_visible)}"
        )
    return None


def _data_difference(log: Any, rules: dict[str, Any]) -> str:
    """E.g. "winners [2], the rules give [0]", "cards[1] {...}, the rules give {...}"."""
    path, log_value, rules_value = _where(log, rules, "")
    path = path or "data"
    if log_value is ABSENT:
        return f"has no {path}, the rules give {show(rules_value)}"
    if rules_value is ABSENT:
        return f"{path} {show(log_value)}, the rules give no {path}"
    return f"{path} {show(log_value)}, the rules give {show(rules_value)}"


ABSENT = object()  # a key one side has and the other lacks


def _where(log: Any, rules: Any, path: str) -> tuple[str, Any, Any]:
    """The first place where two different values differ: its path and the values there, down
    to a single card (a deck differs in a card, not as a whole) but not to a list's number."""
    if type(log) is dict and isinstance(rules, dict) and rules.keys() != {"suit", "rank"}:
        for key in [*rules, *(key for key in log if key not in rules)]:
            inner = f"{path}.{key}" if path else key
            if key not in log or key not in rules:
                return inner, log.get(key, ABSENT), rules.get(key, ABSENT)
            if not same(log[key], rules[key]):
                return _where(log[key], rules[key], inner)
    if _list_of_containers(rules) and isinstance(log, (list, tuple)) and len(log) == len(rules):
        for index, (log_item, rules_item) in enumerate(zip(log, rules, strict=True)):
            if not same(log_item, rules_item):
                return _where(log_item, rules_item, f"{path}[{index}]")
    return path, log, rules


def _list_of_containers(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value)


def same(log: Any, rules: Any) -> bool:
    """The same JSON value; `rules` is what `to_json` gives (dicts, lists, str, int, bool, None)."""
    if isinstance(rules, dict):
        return (
            type(log) is dict
            and log.keys() == rules.keys()
            and all(same(log[key], value) for key, value in rules.items())
        )
    if isinstance(rules, list):
        return (
            isinstance(log, (list, tuple)) and len(log) == len(rules) and all(map(same, log, rules))
        )
    return type(log) is type(rules) and log == rules


def show(value: Any) -> str:
    text = canonical_json(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"
