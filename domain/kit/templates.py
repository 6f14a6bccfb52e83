"""Action templates (`you.legal_actions`) and the bodies they become.

docs/api.md's rule: with min/max send a count; with count and cards send that many cards; with cards
alone send one card; otherwise just the type. Every template also carries that rule worked out
for itself in `send`, so that a client needs no game-specific code: each key of `send` is a field
of the body, and its value says what to put there:

- `{"value": v}`: exactly v (the action's `type`);
- `{"one_of": "cards"}`: one item of the template's `cards`;
- `{"some_of": "cards", "count": n}`: a list of n different items of the template's `cards`;
- `{"min": a, "max": b}`: an integer from a to b.

Lists are named rather than repeated, to keep a 12-card hand from being sent twice. Every body
so built is legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kit.budget import Budget
from domain.kit.decider import IllegalAction
from domain.kit.game_type import Rng


def send_of(template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The body a template becomes, field by field (docs/api.md's rule, machine-readable)."""
    send: dict[str, dict[str, Any]] = {"type": {"value": template["type"]}}
    if "min" in template and "max" in template:
        send["count"] = {"min": template["min"], "max": template["max"]}
    elif "count" in template and "cards" in template:
        send["cards"] = {"some_of": "cards", "count": template["count"]}
    elif "cards" in template:
        send["card"] = {"one_of": "cards"}
    return send


def with_send(templates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game's templates as the API shows them: each with its `send`."""
    return [{**template, "send": send_of(template)} for template in templates]


def action_from_template(template: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
    """A body built from the template's `send` alone, the way any client may build one."""
    return {field: _chosen(template, choice, rng) for field, choice in template["send"].items()}


def _chosen(template: Mapping[str, Any], choice: Mapping[str, Any], rng: Rng) -> Any:
    if "value" in choice:
        return choice["value"]
    if "one_of" in choice:
        return rng.choice(template[choice["one_of"]])
    if "some_of" in choice:
        return rng.sample(template[choice["some_of"]], choice["count"])
    return rng.randint(choice["min"], choice["max"])


def seat_templates(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The templates a bot's view offers its seat; a bot asked with nothing to do refuses."""
    templates = view.get("you", {}).get("legal_actions") or []
    if not templates:
        raise IllegalAction("the bot's seat has nothing to do now")
    return templates


def random_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    """The "random" level of every game: any legal template, any action built from it."""
    return action_from_template(rng.choice(view["you"]["legal_actions"]), rng)
