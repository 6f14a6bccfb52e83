"""The verdict of an export's checks, for people and for scripts.

One line per check: `ok`, `FAIL` or `skip`, and `info` for what is reported but checks nothing
(whether the deals are fair). The verdict:

    VERIFIED                  every check passed and the file is anchored: the head's signature
                              verifies with a key given (--key), or a head obtained elsewhere is
                              in it (--expect-head)
    CONSISTENT, NOT ANCHORED  every check passed, but nothing anchors the file: anyone who
                              rewrote it could have recomputed every hash (docs/audit.md)
    NOT VERIFIED              a check failed

Each has its own exit status, so a script that reads only the status cannot take an unanchored
file for a verified one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VERIFIED, CONSISTENT, NOT_VERIFIED = "VERIFIED", "CONSISTENT, NOT ANCHORED", "NOT VERIFIED"
EXIT_STATUS = {VERIFIED: 0, NOT_VERIFIED: 1, CONSISTENT: 3}  # 2: bad usage (argparse)
ANCHORS = ("signature", "head")


@dataclass(frozen=True)
class Line:
    status: str  # "ok", "FAIL", "skip" or "info"
    check: str
    detail: str

    def __str__(self) -> str:
        return f"{self.status:<4} {self.check}: {self.detail}"


@dataclass
class Report:
    lines: list[Line] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    deals_fair: bool | None = None

    def add(self, status: str, check: str, detail: str) -> bool:
        self.lines.append(Line(status, check, detail))
        return status != "FAIL"

    def passed(self, check: str) -> bool:
        return any(line.status == "ok" and line.check == check for line in self.lines)

    @property
    def consistent(self) -> bool:
        return all(line.status != "FAIL" for line in self.lines)

    @property
    def anchored(self) -> bool:
        return any(line.status == "ok" and line.check in ANCHORS for line in self.lines)

    @property
    def verdict(self) -> str:
        if not self.consistent:
            return NOT_VERIFIED
        return VERIFIED if self.anchored else CONSISTENT

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS[self.verdict]

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "exit_status": self.exit_status,
            "consistent": self.consistent,
            "anchored": self.anchored,
            "game_id": self.header.get("game_id"),
            "version": self.header.get("version"),
            "chain_head": self.header.get("chain_head"),
            "deals_fair": self.deals_fair,
            "checks": [
                {"check": line.check, "status": line.status, "detail": line.detail}
                for line in self.lines
            ],
        }
