"""The blocking client: Cardroom, and the Table and Seat it hands out."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from . import calls
from .calls import ATTEMPTS, Call
from .errors import CardroomError, ServerUnreachable, Unavailable
from .models import ActionResult, Event, Game, Notice, Player, SeatSpec, Ticket
from .sse import messages

STREAM_GIVE_UP_SECONDS = 60.0  # a stream that cannot be reopened for this long raises


class Cardroom:
    """A server, as a spectator or with a player key (`key=`)."""

    def __init__(self, base_url: str, key: str | None = None, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Cardroom:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Sending: one place for the retries.

    def send(self, call: Call) -> httpx.Response:
        last = ATTEMPTS - 1 if call.repeatable else 0
        for attempt in range(last + 1):
            try:
                response = self._http.request(
                    call.method, call.path, json=call.json, params=call.request_params(),
                    headers=call.request_headers(),
                )  # fmt: skip
            except httpx.TransportError as error:
                if attempt == last:
                    raise ServerUnreachable(f"{call.method} {call.path}: {error!r}") from error
                time.sleep(calls.wait_before(attempt, None))
                continue
            if attempt < last and calls.should_retry(response):
                time.sleep(calls.wait_before(attempt, response))
                continue
            return calls.checked(response)
        raise AssertionError("unreachable")

    def _json(self, call: Call) -> Any:
        return self.send(call).json()

    # Games.

    def game_types(self) -> list[dict[str, Any]]:
        types: list[dict[str, Any]] = self._json(calls.read("/game-types", None))
        return types

    def create_game(
        self, game_type: str, seats: list[SeatSpec], options: dict[str, Any] | None = None
    ) -> Table:
        body = calls.create_body(game_type, list(seats), options)
        created = self._json(calls.write("/games", self.key, body, idempotent=True))
        return Table(self, created)

    def join(
        self, game_id: str, seat: int, invite: str | None = None, name: str | None = None
    ) -> Seat:
        body = {k: v for k, v in {"invite": invite, "name": name}.items() if v is not None}
        path = f"/games/{game_id}/seats/{seat}/join"
        joined = self._json(calls.write(path, self.key, body))
        return Seat(self, game_id, joined["seat"], joined.get("token") or self.key or "")

    def game(self, game_id: str) -> Game:
        return Game.of(self._json(calls.read(f"/games/{game_id}", self.key)))

    def events(self, game_id: str, after: int = 0) -> list[Event]:
        """The event log after version `after`, every page of it."""
        return self._events(game_id, self.key, after)

    def _events(self, game_id: str, token: str | None, after: int) -> list[Event]:
        found: list[Event] = []
        while True:
            page = self._json(calls.read(f"/games/{game_id}/events", token, after=after))
            found += [Event.of(raw) for raw in page["events"]]
            if not page["events"] or found[-1].version >= page["version"]:
                return found
            after = found[-1].version

    def audit(self, game_id: str) -> dict[str, Any]:
        audit: dict[str, Any] = self._json(calls.read(f"/games/{game_id}/audit", self.key))
        return audit

    def export(self, game_id: str) -> bytes:
        return self.send(calls.read(f"/games/{game_id}/export", self.key)).content

    def stream(self, game_id: str, token: str | None, after: int | None) -> Iterator[Event]:
        def done(last: int | None) -> bool:
            game = self._game_or_none(game_id, token)
            return game is not None and game.finished and (last or 0) >= game.version

        path = f"/games/{game_id}/events/stream"
        for message in self._resuming(path, token, after, done):
            yield Event.of(json.loads(message))

    def _game_or_none(self, game_id: str, token: str | None) -> Game | None:
        try:
            return Game.of(self._json(calls.read(f"/games/{game_id}", token)))
        except (ServerUnreachable, Unavailable):  # down or restarting: not known to be done
            return None

    def _resuming(
        self, path: str, token: str | None, after: int | None, done: Callable[[int | None], bool]
    ) -> Iterator[str]:
        """Each message's data, reopening the stream after the last id seen when it ends or
        drops, until `done` says so (or it cannot be reopened for a minute)."""
        last, failing_since, attempt = after, None, 0
        timeout = httpx.Timeout(self.timeout, read=calls.STREAM_READ_SECONDS)
        while True:
            call = Call("GET", path, token, headers=calls.resume_headers(last))
            pause = None
            try:
                with self._http.stream(
                    "GET", path, headers=call.request_headers(), timeout=timeout
                ) as response:
                    if calls.should_retry(response):  # 429, 503: full, or restarting
                        response.read()
                        pause = calls.wait_before(attempt, response)
                    elif response.status_code >= 400:
                        response.read()
                        calls.checked(response)
                    else:
                        for message in messages(response.iter_lines()):
                            if message.id is not None:
                                last = int(message.id)
                            failing_since, attempt = None, 0
                            yield message.data
            except httpx.TransportError:
                pass  # dropped: reopened below, after the last id seen
            if done(last):
                return
            failing_since = failing_since or time.monotonic()
            if time.monotonic() - failing_since > STREAM_GIVE_UP_SECONDS:
                raise ServerUnreachable(f"{path}: could not reopen the stream")
            time.sleep(pause if pause is not None else calls.wait_before(min(attempt, 4), None))
            attempt += 1

    # Players.

    @staticmethod
    def create_player(base_url: str, name: str, timeout: float = 10.0) -> tuple[Player, str]:
        with Cardroom(base_url, timeout=timeout) as anonymous:
            created = anonymous._json(calls.write("/players", None, {"name": name}))
        return Player.of(created), created["key"]

    def player(self, player_id: str) -> Player:
        return Player.of(self._json(calls.read(f"/players/{player_id}", self.key)))

    def my_games(self, status: str | None = None, turn: str | None = None) -> list[dict[str, Any]]:
        return self._pages("/me/games", status=status, turn=turn)

    def _pages(self, path: str, **params: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        cursor = None
        while True:
            page = self._json(calls.read(path, self.key, cursor=cursor, **params))
            items += page["items"]
            if not (cursor := page.get("next_cursor")):
                return items

    def notices(self, after: int | None = None) -> Iterator[Notice]:
        """The player's notices (GET /me/stream), resuming after a drop; never ends by itself."""
        for message in self._resuming("/me/stream", self.key, after, lambda last: False):
            yield Notice.of(json.loads(message))

    def join_queue(
        self, game_type: str, players: list[int] | None = None, rated: bool = True,
        bots_after_seconds: int | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        body = calls.queue_body(game_type, players, rated, bots_after_seconds)
        standing: dict[str, Any] = self._json(calls.write("/me/queue", self.key, body))
        return standing

    def queue(self) -> dict[str, Any]:
        standing: dict[str, Any] = self._json(calls.read("/me/queue", self.key))
        return standing

    def leave_queue(self) -> None:
        self.send(Call("DELETE", "/me/queue", self.key))

    def leaderboard(self, game_type: str) -> list[dict[str, Any]]:
        return self._pages(f"/leaderboards/{game_type}")

    def add_webhook(self, url: str, events: list[str]) -> dict[str, Any]:
        """A new webhook; its `secret` (for verify_webhook) is shown only in this answer."""
        body = {"url": url, "events": events}
        created: dict[str, Any] = self._json(calls.write("/me/webhooks", self.key, body))
        return created

    def webhooks(self) -> list[dict[str, Any]]:
        listed: list[dict[str, Any]] = self._json(calls.read("/me/webhooks", self.key))["items"]
        return listed

    def remove_webhook(self, hook_id: str) -> None:
        self.send(Call("DELETE", f"/me/webhooks/{hook_id}", self.key))


class Table:
    """A table just created: its id, the game, and the secrets shown only this once."""

    def __init__(self, room: Cardroom, created: dict[str, Any]) -> None:
        self.room = room
        self.id: str = created["id"]
        self.game = Game.of(created)
        self.tokens: dict[int, str] = {t["seat"]: t["token"] for t in created.get("tokens", [])}
        self.invites: dict[int, str] = {i["seat"]: i["invite"] for i in created.get("invites", [])}

    def seat(self, seat: int) -> Seat:
        """The Seat of a human seat named at creation (or the creating player's own)."""
        if seat in self.tokens:
            return Seat(self.room, self.id, seat, self.tokens[seat])
        if self.room.key is not None:
            return Seat(self.room, self.id, seat, self.room.key)
        raise CardroomError(f"no token for seat {seat}: it is not a human seat named here")


class Seat:
    """One seat of one game, acting with its token (or its player's key)."""

    def __init__(self, room: Cardroom, game_id: str, seat: int, token: str) -> None:
        self.room, self.game_id, self.seat, self.token = room, game_id, seat, token

    def view(self) -> Game:
        return Game.of(self.room._json(calls.read(f"/games/{self.game_id}", self.token)))

    def act(self, action: dict[str, Any]) -> ActionResult:
        call = calls.write(f"/games/{self.game_id}/actions", self.token, action, idempotent=True)
        return ActionResult.of(self.room._json(call))

    def events(self, after: int | None = None) -> Iterator[Event]:
        """Every event after `after` (default: from the start) as it comes; resumes with
        Last-Event-ID after a drop; ends once the game's last event is in."""
        return self.room.stream(self.game_id, self.token, after)

    def event_log(self, after: int = 0) -> list[Event]:
        return self.room._events(self.game_id, self.token, after)

    def leave(self) -> None:
        self.room.send(calls.write(f"/games/{self.game_id}/seats/{self.seat}/leave", self.token))

    def rotate_token(self) -> str:
        path = f"/games/{self.game_id}/seats/{self.seat}/token"
        self.token = self.room._json(calls.write(path, self.token))["token"]
        return self.token

    def ticket(self) -> Ticket:
        made = self.room._json(calls.write(f"/games/{self.game_id}/stream-ticket", self.token))
        return Ticket(made["ticket"], made["expires_at"])
