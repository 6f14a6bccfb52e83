"""What the webhooks services return and the workers hand to RQ: endpoints, attempts, and
deliveries due or leased. Postgres fills them (events/postgres/webhooks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

PING = "ping"
LEASE_SECONDS = 60.0  # longer than an attempt can take (resolving, 5 s, recording)


@dataclass(frozen=True, slots=True)
class EndpointRow:
    id: UUID
    player_id: UUID
    url: str
    events: list[str]
    enabled: bool
    failures: int
    created_at: datetime
    disabled_at: datetime | None


@dataclass(frozen=True, slots=True)
class AttemptRow:
    message_id: UUID
    kind: str
    notice: int | None
    attempt: int
    at: datetime
    latency_ms: int
    status: int | None
    error: str | None
    answer: str
    delivered: bool


@dataclass(frozen=True, slots=True)
class DueDelivery:
    id: int
    failures: int

    @property
    def job_id(self) -> str:
        """One job per attempt: handing the same attempt to RQ twice keeps one job."""
        return f"webhook_{self.id}_{self.failures}"


@dataclass(frozen=True, slots=True)
class LeasedDelivery:
    """A delivery a job may now send: what it sends, and where."""

    id: int
    message_id: UUID
    player_id: UUID
    kind: str
    notice: int | None
    created_at: datetime
    failures: int
    endpoint_id: UUID
    url: str
    secret_sealed: str
    game_id: UUID | None
    version: int | None
    seat: int | None
    notice_at: datetime | None
