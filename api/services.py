"""What the app holds for its requests: the composition root's parts (events/bootstrap.py)
and Redis."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from redis import Redis

from events.audit.signing import HeadSigner
from events.automation import Automation
from events.bootstrap import Pool
from events.commands import Commands
from events.matchmaking.matcher import Matcher
from events.matchmaking.queue import Queue
from events.operations.settings import Settings
from events.players import Players
from events.public_log import PublicLog
from events.queries import Queries
from events.webhooks.endpoints import Webhooks
from events.work_queue import WorkQueue


@dataclass
class Services:
    settings: Settings
    pool: Pool  # closed when the process ends; views never use it
    commands: Commands
    automation: Automation  # tests drive workers' work through it; views never do
    queries: Queries
    signer: HeadSigner
    redis: Redis
    players: Players
    webhooks: Webhooks
    queue: Queue
    matcher: Matcher  # the workers run it; tests run passes through it; views never do
    work: WorkQueue  # the outbox's lag, for the health check and /metrics
    public_log: PublicLog  # the log of finished games (GET /log/..., exports)


def services() -> Services:
    built: Services = current_app.extensions["cardroom"]  # create_app put it there
    return built
