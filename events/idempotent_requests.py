"""A request carrying an Idempotency-Key: claimed in the command's transaction, answered again
from the stored response on a retry, refused when the key comes back with another body."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from domain.decider import DomainError
from events import idempotency
from events.idempotency import ClaimKind
from events.sealing import seal, unseal


class RequestInProgress(DomainError):
    code = "request-in-progress"


class IdempotencyKeyReused(DomainError):
    code = "idempotency-key-reused"


@dataclass(frozen=True)
class IdempotentRequest:
    """`key` is the client's Idempotency-Key; only its hash is stored. A `sealed` response
    (one holding seat tokens) is stored encrypted with the key itself."""

    scope: str
    key: str
    request_hash: str
    sealed: bool = False

    @property
    def key_hash(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8", "surrogatepass")).hexdigest()

    def first_response(self, conn) -> tuple[int, dict] | None:
        """Claims the key; the stored (status, body) if the request was served before."""
        claim = idempotency.claim(conn, self.scope, self.key_hash, self.request_hash)
        if claim.kind == ClaimKind.IN_PROGRESS:
            raise RequestInProgress("a request with this Idempotency-Key is still being served")
        if claim.kind == ClaimKind.REUSED:
            raise IdempotencyKeyReused("this Idempotency-Key was used with a different request")
        if claim.kind == ClaimKind.REPLAY:
            return claim.status_code, self._readable(claim.response)
        return None

    def complete(self, conn, status: int, body: dict) -> None:
        """Stores the response in the transaction that appends the request's events."""
        idempotency.complete(conn, self.scope, self.key_hash, status, self._storable(body))

    def _storable(self, body: dict) -> dict:
        return {"sealed": seal(json.dumps(body), self.key)} if self.sealed else body

    def _readable(self, stored: dict) -> dict:
        return json.loads(unseal(stored["sealed"], self.key)) if self.sealed else stored
