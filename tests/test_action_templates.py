"""Every legal-action template says in `send` which body it becomes. In whole self-played games
of every type and table size, at every step, every body a client builds from a template's
`send` alone is legal, and every template and body is of the spec's schema."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from domain.games import GAME_TYPES
from domain.kit.templates import send_of
from domain.tables import selfplay
from domain.tables import table as tables
from domain.tables.actions import command_from_action
from domain.tables.view import view_table
from tests.api.spec import component_validator

GAMES = [
    (game_id, players)
    for game_id, game in sorted(GAME_TYPES.items())
    for players in sorted({game.min_players, game.max_players})
]
SAMPLES = 3  # random picks of several cards per template: there are too many to try them all


def choices(template: dict[str, Any], choice: dict[str, Any], rng: random.Random) -> list[Any]:
    """What a client may put in one field, read from `send` and the list it names: every value
    where they are few, a few random picks of several cards."""
    if "value" in choice:
        return [choice["value"]]
    if "one_of" in choice:
        return list(template[choice["one_of"]])
    if "some_of" in choice:
        listed = template[choice["some_of"]]
        return [rng.sample(listed, choice["count"]) for _ in range(SAMPLES)]
    return list(range(choice["min"], choice["max"] + 1))


def bodies_from_send(template: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    send = template["send"]
    fields = [choices(template, choice, rng) for choice in send.values()]
    return [dict(zip(send, values, strict=True)) for values in itertools.product(*fields)]


def only_send(template: dict[str, Any]) -> dict[str, Any]:
    """The template cut down to `send` and the lists it names: a client needs nothing else."""
    named = {choice.get("one_of") or choice.get("some_of") for choice in template["send"].values()}
    return {"send": template["send"], **{name: template[name] for name in named if name}}


def check_every_template(table: tables.Table, rng: random.Random) -> set[str]:
    """Every template of every seat is of the spec, and each body built from it is of the spec
    and legal now. Returns the action types of the templates."""
    templates_of_spec = component_validator("ActionTemplate")
    actions_of_spec = component_validator("Action")
    offered = set()
    for seat in range(len(table.seats)):
        for template in view_table(table, seat)["you"]["legal_actions"]:
            templates_of_spec.validate(template)
            for body in bodies_from_send(only_send(template), rng):
                actions_of_spec.validate(body)
                command = command_from_action(table.game_type, seat, body)
                assert tables.decide(table, command), body  # raises IllegalAction if refused
            offered.add(template["type"])
    return offered


QUICK_LEVELS = ("random", "basic")


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_body_built_from_send_alone_is_legal_at_every_step_of_a_whole_game(
    game_id: str, players: int
) -> None:
    game_type = GAME_TYPES[game_id]
    rng = random.Random(f"{game_id}/{players}")
    # Quick bots of both kinds: the game's templates are under test here, not its bots' skill.
    levels = [rng.choice(QUICK_LEVELS) for _ in range(players)]
    table, _ = selfplay.bot_table(game_type, levels)
    offered: set[str] = set()
    for step in selfplay.steps(table, rng):
        offered |= check_every_template(step.table, rng)
        table = step.table
    assert table.status == "finished"
    assert offered == set(game_type.action_types)


def test_send_spells_out_the_rule_of_api_md_for_each_kind_of_template() -> None:
    cards = [{"suit": "red", "rank": 1}, {"suit": "red", "rank": 2}]
    assert send_of({"type": "play_card", "cards": cards}) == {
        "type": {"value": "play_card"},
        "card": {"one_of": "cards"},
    }
    assert send_of({"type": "pass_cards", "count": 2, "cards": cards}) == {
        "type": {"value": "pass_cards"},
        "cards": {"some_of": "cards", "count": 2},
    }
    assert send_of({"type": "take_relics", "min": 1, "max": 4}) == {
        "type": {"value": "take_relics"},
        "count": {"min": 1, "max": 4},
    }
    assert send_of({"type": "pass_relics"}) == {"type": {"value": "pass_relics"}}
