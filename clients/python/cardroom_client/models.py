"""Typed views of the server's JSON, written by hand after openapi.yaml. Each keeps what the
server sent in `raw`, so a field this client does not name (a game's own table state) is still
there."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

GameStatus = Literal["waiting", "active", "finished"]


class Card(TypedDict):
    suit: str
    rank: int


class SeatSpec(TypedDict, total=False):
    """A seat asked for at creation: use human(), bot(), open_seat() or me()."""

    kind: Literal["human", "bot", "open"]
    name: str
    level: str
    player: str
    client_seed: str


def human(name: str, client_seed: str | None = None) -> SeatSpec:
    seat = SeatSpec(kind="human", name=name)
    if client_seed is not None:
        seat["client_seed"] = client_seed
    return seat


def bot(level: str = "basic") -> SeatSpec:
    return SeatSpec(kind="bot", level=level)


def open_seat(player: str | None = None) -> SeatSpec:
    """An open seat, for anyone with its invite, or kept for one player (its id)."""
    seat = SeatSpec(kind="open")
    if player is not None:
        seat["player"] = player
    return seat


def me(name: str | None = None) -> SeatSpec:
    """The seat of the player whose key creates the table."""
    seat = SeatSpec(kind="human", player="me")
    if name is not None:
        seat["name"] = name
    return seat


@dataclass(frozen=True)
class You:
    seat: int
    hand: list[Card]
    legal_actions: list[dict[str, Any]]
    raw: dict[str, Any]

    @staticmethod
    def of(raw: dict[str, Any]) -> You:
        return You(raw["seat"], raw["hand"], raw["legal_actions"], raw)


@dataclass(frozen=True)
class Result:
    winners: list[int]
    losers: list[int]
    final: dict[str, Any]


@dataclass(frozen=True)
class Game:
    """The game as the caller may see it (GET /games/{id})."""

    id: str
    type: str
    status: GameStatus
    version: int
    round: int
    phase: str
    to_act: list[int]
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    you: You | None
    result: Result | None
    raw: dict[str, Any] = field(repr=False)

    @staticmethod
    def of(raw: dict[str, Any]) -> Game:
        you, result = raw.get("you"), raw.get("result")
        return Game(
            id=raw["id"], type=raw["type"], status=raw["status"], version=raw["version"],
            round=raw["round"], phase=raw["phase"], to_act=raw["to_act"], seats=raw["seats"],
            options=raw.get("options", {}), you=You.of(you) if you else None,
            result=Result(result["winners"], result["losers"], result["final"]) if result else None,
            raw=raw,
        )  # fmt: skip

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def my_turn(self) -> bool:
        return (
            self.you is not None and self.you.seat in self.to_act and bool(self.you.legal_actions)
        )


@dataclass(frozen=True)
class Event:
    """An event as the viewer may see it; `data` is redacted where the full one is secret."""

    version: int
    type: str
    seat: int | None
    recorded_at: str
    data: dict[str, Any]

    @staticmethod
    def of(raw: dict[str, Any]) -> Event:
        return Event(raw["version"], raw["type"], raw["seat"], raw["recorded_at"], raw["data"])


@dataclass(frozen=True)
class ActionResult:
    version: int
    events: list[Event]
    game: Game

    @staticmethod
    def of(raw: dict[str, Any]) -> ActionResult:
        return ActionResult(
            raw["version"], [Event.of(e) for e in raw["events"]], Game.of(raw["game"])
        )


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    raw: dict[str, Any] = field(repr=False)

    @staticmethod
    def of(raw: dict[str, Any]) -> Player:
        return Player(raw["id"], raw["name"], raw)


@dataclass(frozen=True)
class Notice:
    """A notice of GET /me/stream (or a webhook's body): never a card."""

    id: int
    kind: str
    game_id: str | None
    version: int | None
    seat: int | None
    at: str

    @staticmethod
    def of(raw: dict[str, Any]) -> Notice:
        return Notice(
            raw["id"], raw["kind"], raw["game_id"], raw["version"], raw["seat"], raw["at"]
        )


@dataclass(frozen=True)
class Ticket:
    ticket: str
    expires_at: str


def first_legal_action(game: Game) -> dict[str, Any]:
    """The first legal template made into an action, mechanically (every one so built is
    legal): with min/max send the least count; with count and cards, the first that many
    cards; with cards alone, the first card; otherwise just the type."""
    if game.you is None or not game.you.legal_actions:
        raise ValueError("this seat has nothing to do now")
    template = game.you.legal_actions[0]
    action: dict[str, Any] = {"type": template["type"]}
    if "min" in template:
        action["count"] = template["min"]
    elif "count" in template and "cards" in template:
        action["cards"] = template["cards"][: template["count"]]
    elif "cards" in template:
        action["card"] = template["cards"][0]
    return action
