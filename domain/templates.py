"""Actions built mechanically from `legal_actions` templates, the way API.md tells clients to:
with min/max send a count; with count and cards send that many cards; with cards alone send one
card; otherwise just the type. Every action so built is legal."""

from __future__ import annotations

from typing import Any

from domain.decider import IllegalAction
from domain.game_type import Rng


def action_from_template(template: dict[str, Any], rng: Rng) -> dict[str, Any]:
    action: dict[str, Any] = {"type": template["type"]}
    if "min" in template and "max" in template:
        action["count"] = rng.randint(template["min"], template["max"])
    elif "count" in template and "cards" in template:
        action["cards"] = rng.sample(template["cards"], template["count"])
    elif "cards" in template:
        action["card"] = rng.choice(template["cards"])
    return action


def seat_templates(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The templates a bot's view offers its seat; a bot asked with nothing to do refuses."""
    templates = view.get("you", {}).get("legal_actions") or []
    if not templates:
        raise IllegalAction("the bot's seat has nothing to do now")
    return templates


def random_bot(view: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """The "random" level of every game: any legal template, any action built from it."""
    return action_from_template(rng.choice(view["you"]["legal_actions"]), rng)
