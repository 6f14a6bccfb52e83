"""Wake-ups: the hints a commit sends to whoever waits on it (streams, the relays, the stream
publisher), and the ports through which the API and the workers wait for them. A wake-up is
only a hint: every waiter re-reads what it waits for, and polls anyway.

On Postgres a wake-up is a NOTIFY on one of these channels, sent at commit
(events/postgres/notifications.py listens); the API and the workers get their listeners from
the composition root (events/bootstrap.py), never from the Postgres modules.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol, Self
from uuid import UUID

GAME_CHANNEL = "game_events"  # payload: the game's id, then its first new version, if any
PLAYER_CHANNEL = "player_notices"  # payload: the player's id
OUTBOX_CHANNEL = "cardroom_outbox"  # wakes the outbox relay
WEBHOOK_CHANNEL = "cardroom_webhooks"  # wakes the webhook relay


def game_wakeup(game_id: UUID, first: int | None = None) -> str:
    """The payload of a wake-up on GAME_CHANNEL: the game's id, then the version of the first
    event the commit appended, if it appended any (the stream publisher reads from there)."""
    return str(game_id) if first is None else f"{game_id} {first}"


def game_of(payload: str) -> UUID | None:
    """The id a payload starts with (a game's wake-up also names its first new version)."""
    try:
        return UUID(payload.partition(" ")[0])
    except ValueError:
        return None


def first_version_of(payload: str) -> int | None:
    """The first new version a game's wake-up names; None when it names none."""
    _, _, named = payload.partition(" ")
    return int(named) if named.isdigit() else None


@dataclass(frozen=True, slots=True)
class Wakeup:
    channel: str
    payload: str


class ListenerLost(Exception):
    """The listening connection failed or could not be opened: wake-ups are lost until it is
    opened again (whoever waited polls meanwhile)."""


class Listener(Protocol):
    """One connection listening on some channels."""

    def wakeups(self, timeout: float, stop_after: int | None = None) -> Iterator[Wakeup]:
        """The wake-ups that arrive within `timeout` seconds (the first `stop_after` of them,
        if given); ListenerLost if the connection fails."""
        ...

    def try_lock(self, key: int) -> bool:
        """Takes a lock held as long as this listener's connection (False: another holds it),
        so that one process of several does a job, and another takes over when it stops."""
        ...


class Listen(Protocol):
    """Opens a listener on the channels (ListenerLost if it cannot), closed on leaving."""

    def __call__(self, *channels: str) -> AbstractContextManager[Listener]: ...


class Subscription(Protocol):
    """A waiter on one id (a game, a player); `with` it to stop waiting on leaving."""

    def wait(self, timeout: float) -> bool:
        """True when woken within `timeout` seconds."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


class Notifier(Protocol):
    """One listener per process, fanning a channel's wake-ups out to the waiters of each id."""

    def subscribe(self, subject: UUID, /) -> Subscription: ...

    def generation(self, subject: UUID, /) -> int | None:
        """A value that changes at each wake-up of `subject` (None while not listening)."""
        ...

    def poll_timeout(self, heartbeat: float) -> float:
        """How long a waiter may sleep before re-reading on its own."""
        ...

    def close(self) -> None:
        """Stops listening; the waiters end at their next wake-up."""
        ...

    @property
    def closed(self) -> bool: ...
