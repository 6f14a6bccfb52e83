"""The asyncio client: AsyncCardroom, AsyncTable and AsyncSeat, the same methods as sync.py's
as coroutines and async iterators (and the same calls, from calls.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx

from . import calls
from .calls import ATTEMPTS, Call
from .errors import CardroomError, ServerUnreachable, Unavailable
from .models import ActionResult, Event, Game, Notice, Player, SeatSpec, Ticket
from .sse import amessages
from .sync import STREAM_GIVE_UP_SECONDS


class AsyncCardroom:
    def __init__(self, base_url: str, key: str | None = None, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncCardroom:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def send(self, call: Call) -> httpx.Response:
        last = ATTEMPTS - 1 if call.repeatable else 0
        for attempt in range(last + 1):
            try:
                response = await self._http.request(
                    call.method, call.path, json=call.json, params=call.request_params(),
                    headers=call.request_headers(),
                )  # fmt: skip
            except httpx.TransportError as error:
                if attempt == last:
                    raise ServerUnreachable(f"{call.method} {call.path}: {error!r}") from error
                await asyncio.sleep(calls.wait_before(attempt, None))
                continue
            if attempt < last and calls.should_retry(response):
                await asyncio.sleep(calls.wait_before(attempt, response))
                continue
            return calls.checked(response)
        raise AssertionError("unreachable")

    async def _json(self, call: Call) -> Any:
        return (await self.send(call)).json()

    async def game_types(self) -> list[dict[str, Any]]:
        types: list[dict[str, Any]] = await self._json(calls.read("/game-types", None))
        return types

    async def create_game(
        self, game_type: str, seats: list[SeatSpec], options: dict[str, Any] | None = None
    ) -> AsyncTable:
        body = calls.create_body(game_type, list(seats), options)
        created = await self._json(calls.write("/games", self.key, body, idempotent=True))
        return AsyncTable(self, created)

    async def join(
        self, game_id: str, seat: int, invite: str | None = None, name: str | None = None
    ) -> AsyncSeat:
        body = {k: v for k, v in {"invite": invite, "name": name}.items() if v is not None}
        path = f"/games/{game_id}/seats/{seat}/join"
        joined = await self._json(calls.write(path, self.key, body))
        return AsyncSeat(self, game_id, joined["seat"], joined.get("token") or self.key or "")

    async def game(self, game_id: str) -> Game:
        return Game.of(await self._json(calls.read(f"/games/{game_id}", self.key)))

    async def events(self, game_id: str, after: int = 0) -> list[Event]:
        return await self._events(game_id, self.key, after)

    async def _events(self, game_id: str, token: str | None, after: int) -> list[Event]:
        found: list[Event] = []
        while True:
            page = await self._json(calls.read(f"/games/{game_id}/events", token, after=after))
            found += [Event.of(raw) for raw in page["events"]]
            if not page["events"] or found[-1].version >= page["version"]:
                return found
            after = found[-1].version

    async def audit(self, game_id: str) -> dict[str, Any]:
        audit: dict[str, Any] = await self._json(calls.read(f"/games/{game_id}/audit", self.key))
        return audit

    async def export(self, game_id: str) -> bytes:
        return (await self.send(calls.read(f"/games/{game_id}/export", self.key))).content

    async def stream(
        self, game_id: str, token: str | None, after: int | None
    ) -> AsyncIterator[Event]:
        async def done(last: int | None) -> bool:
            try:
                game = Game.of(await self._json(calls.read(f"/games/{game_id}", token)))
            except (ServerUnreachable, Unavailable):
                return False
            return game.finished and (last or 0) >= game.version

        path = f"/games/{game_id}/events/stream"
        async for message in self._resuming(path, token, after, done):
            yield Event.of(json.loads(message))

    async def _resuming(
        self, path: str, token: str | None, after: int | None,
        done: Callable[[int | None], Awaitable[bool]],
    ) -> AsyncIterator[str]:  # fmt: skip
        last, failing_since, attempt = after, None, 0
        timeout = httpx.Timeout(self.timeout, read=calls.STREAM_READ_SECONDS)
        while True:
            call = Call("GET", path, token, headers=calls.resume_headers(last))
            pause = None
            try:
                async with self._http.stream(
                    "GET", path, headers=call.request_headers(), timeout=timeout
                ) as response:
                    if calls.should_retry(response):  # 429, 503: full, or restarting
                        await response.aread()
                        pause = calls.wait_before(attempt, response)
                    elif response.status_code >= 400:
                        await response.aread()
                        calls.checked(response)
                    else:
                        async for message in amessages(response.aiter_lines()):
                            if message.id is not None:
                                last = int(message.id)
                            failing_since, attempt = None, 0
                            yield message.data
            except httpx.TransportError:
                pass
            if await done(last):
                return
            failing_since = failing_since or time.monotonic()
            if time.monotonic() - failing_since > STREAM_GIVE_UP_SECONDS:
                raise ServerUnreachable(f"{path}: could not reopen the stream")
            await asyncio.sleep(
                pause if pause is not None else calls.wait_before(min(attempt, 4), None)
            )
            attempt += 1

    @staticmethod
    async def create_player(base_url: str, name: str, timeout: float = 10.0) -> tuple[Player, str]:
        async with AsyncCardroom(base_url, timeout=timeout) as anonymous:
            created = await anonymous._json(calls.write("/players", None, {"name": name}))
        return Player.of(created), created["key"]

    async def player(self, player_id: str) -> Player:
        return Player.of(await self._json(calls.read(f"/players/{player_id}", self.key)))

    async def my_games(
        self, status: str | None = None, turn: str | None = None
    ) -> list[dict[str, Any]]:
        return await self._pages("/me/games", status=status, turn=turn)

    async def _pages(self, path: str, **params: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        cursor = None
        while True:
            page = await self._json(calls.read(path, self.key, cursor=cursor, **params))
            items += page["items"]
            if not (cursor := page.get("next_cursor")):
                return items

    async def notices(self, after: int | None = None) -> AsyncIterator[Notice]:
        async def never(last: int | None) -> bool:
            return False

        async for message in self._resuming("/me/stream", self.key, after, never):
            yield Notice.of(json.loads(message))

    async def join_queue(
        self, game_type: str, players: list[int] | None = None, rated: bool = True,
        bots_after_seconds: int | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        body = calls.queue_body(game_type, players, rated, bots_after_seconds)
        standing: dict[str, Any] = await self._json(calls.write("/me/queue", self.key, body))
        return standing

    async def queue(self) -> dict[str, Any]:
        standing: dict[str, Any] = await self._json(calls.read("/me/queue", self.key))
        return standing

    async def leave_queue(self) -> None:
        await self.send(Call("DELETE", "/me/queue", self.key))

    async def leaderboard(self, game_type: str) -> list[dict[str, Any]]:
        return await self._pages(f"/leaderboards/{game_type}")

    async def add_webhook(self, url: str, events: list[str]) -> dict[str, Any]:
        body = {"url": url, "events": events}
        created: dict[str, Any] = await self._json(calls.write("/me/webhooks", self.key, body))
        return created

    async def webhooks(self) -> list[dict[str, Any]]:
        listed: list[dict[str, Any]] = (await self._json(calls.read("/me/webhooks", self.key)))[
            "items"
        ]
        return listed

    async def remove_webhook(self, hook_id: str) -> None:
        await self.send(Call("DELETE", f"/me/webhooks/{hook_id}", self.key))


class AsyncTable:
    def __init__(self, room: AsyncCardroom, created: dict[str, Any]) -> None:
        self.room = room
        self.id: str = created["id"]
        self.game = Game.of(created)
        self.tokens: dict[int, str] = {t["seat"]: t["token"] for t in created.get("tokens", [])}
        self.invites: dict[int, str] = {i["seat"]: i["invite"] for i in created.get("invites", [])}

    def seat(self, seat: int) -> AsyncSeat:
        if seat in self.tokens:
            return AsyncSeat(self.room, self.id, seat, self.tokens[seat])
        if self.room.key is not None:
            return AsyncSeat(self.room, self.id, seat, self.room.key)
        raise CardroomError(f"no token for seat {seat}: it is not a human seat named here")


class AsyncSeat:
    def __init__(self, room: AsyncCardroom, game_id: str, seat: int, token: str) -> None:
        self.room, self.game_id, self.seat, self.token = room, game_id, seat, token

    async def view(self) -> Game:
        return Game.of(await self.room._json(calls.read(f"/games/{self.game_id}", self.token)))

    async def act(self, action: dict[str, Any]) -> ActionResult:
        call = calls.write(f"/games/{self.game_id}/actions", self.token, action, idempotent=True)
        return ActionResult.of(await self.room._json(call))

    def events(self, after: int | None = None) -> AsyncIterator[Event]:
        return self.room.stream(self.game_id, self.token, after)

    async def event_log(self, after: int = 0) -> list[Event]:
        return await self.room._events(self.game_id, self.token, after)

    async def leave(self) -> None:
        path = f"/games/{self.game_id}/seats/{self.seat}/leave"
        await self.room.send(calls.write(path, self.token))

    async def rotate_token(self) -> str:
        path = f"/games/{self.game_id}/seats/{self.seat}/token"
        self.token = (await self.room._json(calls.write(path, self.token)))["token"]
        return self.token

    async def ticket(self) -> Ticket:
        path = f"/games/{self.game_id}/stream-ticket"
        made = await self.room._json(calls.write(path, self.token))
        return Ticket(made["ticket"], made["expires_at"])
