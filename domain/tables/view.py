"""What a caller may see of a table: the game's own view merged with the seats, and events
redacted for that caller (G3, API: no card a viewer may not know, until the game is over).
Once the game is over every version of it is open to anyone (`view_once_over`)."""

from __future__ import annotations

from typing import Any

from domain.kit.codec import to_json
from domain.kit.decider import Event
from domain.shared.seeds import seeds_json
from domain.tables.rated_tables import is_rated
from domain.tables.table import BOT, Table


def view_table(table: Table, seat: int | None) -> dict[str, Any]:
    game_view = table.game_type.view(table.game, seat)
    figures = game_view.pop("seats")
    view = {
        "type": table.game_type.id,
        "status": table.status,
        **game_view,
        "seats": [_seat_view(table, index, figures[index]) for index in range(len(table.seats))],
        "options": dict(table.options),
        "rated": is_rated(table.options),
    }
    if table.seeds is not None:
        view["seeding"] = seeds_json(table.seeds, table.status == "finished")
    if not table.started:
        # Before the deal the game has nothing to ask of anyone.
        view.update(phase="waiting", to_act=[], round=0)
        if "you" in view:
            view["you"]["legal_actions"] = []
    return view


def view_once_over(table: Table, seat: int | None) -> dict[str, Any]:
    """The table, at any version of a game now over, as anyone may see it: nothing in the game
    is secret any more (every event is public), so each seat's entry carries the cards its own
    view showed it then (`hand` and its private figures), and the table what the game's end
    reveals, as it stood then. `seat` still gets its `you`."""
    view = view_table(table, seat)
    for entry in view["seats"]:
        entry.update(_own_cards(table, entry["seat"]))
    if table.status != "finished":  # a finished table's view holds them already
        view.update(table.game_type.revealed_at_end(table.game))
    return view


def _own_cards(table: Table, seat: int) -> dict[str, Any]:
    """What the seat's own view shows of its cards, as it shows them: the `you` block but for
    what the seat may do (a replay acts for nobody) and the seat number the entry has."""
    own = table.game_type.view(table.game, seat)["you"]
    return {key: value for key, value in own.items() if key not in ("seat", "legal_actions")}


def _seat_view(table: Table, index: int, figures: dict[str, Any]) -> dict[str, Any]:
    info = table.seats[index]
    seat = {"seat": index, "name": info.name, "kind": info.kind}
    if info.kind == BOT:
        seat["level"] = info.level
    if info.player is not None:
        seat["player_id"] = info.player  # public: who sits (or is awaited) here
    if index in table.left:
        seat["left"] = True  # a bot plays the seat its human left
    return {**seat, **figures}


def may_see(event: Event, viewer: int | None, finished: bool) -> bool:
    if finished:
        return True
    allowed = event.visible_to()
    return allowed is None or (viewer is not None and viewer in allowed)


def event_data_for(event: Event, viewer: int | None, finished: bool) -> dict[str, Any]:
    return to_json(event) if may_see(event, viewer, finished) else event.redacted()
