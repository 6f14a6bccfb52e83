"""Actions built mechanically from `legal_actions` templates, the way API.md tells clients to:
with min/max send a count; with count and cards send that many cards; with cards alone send one
card; otherwise just the type. Every action so built is legal."""

from __future__ import annotations

from typing import Any

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
