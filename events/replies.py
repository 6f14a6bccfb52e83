"""Idempotent requests: claimed in the command's unit of work; a retry is answered from what the
first one did (game, seat, versions), and the secrets it showed, sealed (events/sealing.py)."""

from __future__ import annotations

import json
from uuid import UUID

from events.errors import IdempotencyKeyReused, RequestInProgress
from events.idempotent_requests import ClaimKind, IdempotentRequest
from events.results import Committed, Replayed, SeatSecrets
from events.sealing import Sealer
from events.unit_of_work import UnitOfWork


class Replies:
    def __init__(self, sealer: Sealer) -> None:
        self._sealer = sealer

    def claim(self, uow: UnitOfWork, idem: IdempotentRequest) -> Replayed | None:
        """None for a new request; what the first one did for a retry."""
        claim = uow.claim(idem.scope, self._sealer.key_id(idem.key), idem.request_hash)
        if claim.kind == ClaimKind.IN_PROGRESS:
            raise RequestInProgress("a request with this Idempotency-Key is still being served")
        if claim.kind == ClaimKind.REUSED:
            raise IdempotencyKeyReused("this Idempotency-Key was used with a different request")
        if claim.kind == ClaimKind.NEW:
            return None
        record = claim.record
        secrets = SeatSecrets()
        if record.get("secrets"):
            opened = self._sealer.unseal(record["secrets"], idem.key, idem.scope)
            secrets = SeatSecrets.from_json(json.loads(opened))
        return Replayed(
            UUID(record["game_id"]), record["before"], record["version"], record["seat"], secrets
        )

    def record(
        self, uow: UnitOfWork, idem: IdempotentRequest, done: Committed, seat: int | None
    ) -> None:
        sealed = None
        if done.secrets.tokens or done.secrets.invites:
            plain = json.dumps(done.secrets.to_json()).encode()
            sealed = self._sealer.seal(plain, idem.key, idem.scope)
        record = {
            "game_id": str(done.game_id),
            "before": done.before,
            "version": done.version,
            "seat": seat,
            "secrets": sealed,
        }
        uow.complete(idem.scope, self._sealer.key_id(idem.key), record)
