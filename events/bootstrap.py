"""The composition root: builds the pool, the cache, the signing key, the unit of work, the
command service and the queries, the same way for the API and the workers. It is the one
module of the application that picks Postgres: the API and the workers get every part of it
from here, typed by its port, and never import events/postgres/ (make lint checks it)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Any

from domain.kit.budget import Deadline
from events.audit.signing import HeadSigner, load_or_create_signer
from events.automation import BOT_SEED_PURPOSE, Automation
from events.commands import Commands
from events.committing import Committer
from events.credentials import new_token
from events.matchmaking.matcher import Matcher
from events.matchmaking.queue import Queue
from events.matchmaking.ratings import StoredRatings
from events.operations.settings import Settings
from events.players import Players
from events.postgres.connections import Pool
from events.postgres.db import UNAVAILABLE, make_pool
from events.postgres.notifications import GameNotifier, listening
from events.postgres.repository import Repository
from events.postgres.unit_of_work import PostgresUnitOfWork
from events.public_log import PublicLog
from events.queries import Queries, run_in_place
from events.rating_updates import RatingUpdates
from events.sealing import Sealer
from events.wakeups import GAME_CHANNEL, Listener, Notifier
from events.webhooks import signing as webhook_signing
from events.webhooks.endpoints import Webhooks
from events.webhooks.outgoing import Outgoing
from events.work_queue import WorkQueue

# What the ways in may know of storage: its errors that mean "retry", and the pool's type.
STORAGE_UNAVAILABLE = UNAVAILABLE
__all__ = ["STORAGE_UNAVAILABLE", "Cardroom", "Pool", "bootstrap", "new_notifier"]


@dataclass
class Cardroom:
    settings: Settings
    pool: Pool
    commands: Commands
    automation: Automation
    queries: Queries
    signer: HeadSigner
    players: Players
    webhooks: Webhooks
    ratings: RatingUpdates
    queue: Queue
    matcher: Matcher
    work: WorkQueue
    outgoing: Outgoing
    public_log: PublicLog

    def close(self) -> None:
        self.pool.close()

    def listen(self, *channels: str) -> AbstractContextManager[Listener]:
        """A connection of its own listening on the channels (events/wakeups.py names them)."""
        return listening(self.settings.database_url, *channels)


def new_notifier(database_url: str, channel: str = GAME_CHANNEL) -> Notifier:
    """One process's listener on a channel (games, or players' notices), for its streams."""
    return GameNotifier(database_url, channel=channel)


def bootstrap(
    settings: Settings, pool_size: int | None = None, offload: Callable[..., Any] = run_in_place
) -> Cardroom:
    """`offload` runs CPU-heavy pure work of a query (events/queries.py); the API passes one
    that keeps it off its event loop."""
    pool = make_pool(settings.database_url, pool_size or settings.db_pool_size)
    signer = load_or_create_signer(settings.audit_key_path)
    repository = Repository()
    units = partial(PostgresUnitOfWork, pool, repository, signer)
    committer = Committer(deal_rng=secrets.SystemRandom())
    commands = Commands(
        units=units,
        sealer=Sealer(signer.derived_secret("cardroom/sealed-replies")),
        committer=committer,
        new_token=new_token,
    )
    seconds = settings.bot_budget_ms / 1000
    automation = Automation(
        units,
        committer,
        bot_secret=signer.derived_secret(BOT_SEED_PURPOSE),
        bot_budget=lambda: Deadline(time.monotonic, seconds),  # the domain reads no clock
    )
    queries = Queries(pool, repository, offload)
    webhook_sealer = Sealer(signer.derived_secret(webhook_signing.SEALING_PURPOSE))
    webhooks = Webhooks(pool, webhook_sealer, settings.webhooks_allow_private)
    skills = StoredRatings()  # the one place matchmaking's ratings come from
    return Cardroom(
        settings,
        pool,
        commands,
        automation,
        queries,
        signer,
        Players(pool),
        webhooks,
        RatingUpdates(pool),
        Queue(pool, skills),
        Matcher(pool, commands, skills, secrets.SystemRandom()),
        WorkQueue(pool),
        Outgoing(pool, webhook_sealer),
        PublicLog(pool, signer, settings.log_origin),
    )
