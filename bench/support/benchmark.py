"""What a benchmark declares: its settings (each a default, or a (default, quick) pair), the
function that returns its figures, and its goals as data; the runner does the rest."""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bench.support.service import Service

Settings = dict[str, Any]
Figures = dict[str, Any]
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
}
PASS, FAIL, NOT_MEASURED, SKIPPED = "PASS", "FAIL", "n/a", "skipped"


class Skip(Exception):  # noqa: N818 - a benchmark's way to say it cannot run here
    """Raised by a benchmark that cannot run on this machine (no browser, no HAProxy)."""


@dataclass(frozen=True)
class Goal:
    """`figures[figure] op target`, e.g. Goal("p95_ms", "<", 250, "ms"). A figure the run
    did not measure (absent, None or NaN) gives no verdict."""

    figure: str
    op: str
    target: float | bool
    unit: str = ""
    about: str = ""

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise ValueError(f"unknown operator {self.op!r}")

    @property
    def text(self) -> str:
        return (
            self.about or f"{self.figure} {self.op} {self.target:g}{self.unit and ' '}{self.unit}"
        )

    def value(self, figures: Mapping[str, Any]) -> Any:
        value = figures.get(self.figure)
        return None if isinstance(value, float) and math.isnan(value) else value

    def verdict(self, figures: Mapping[str, Any]) -> str:
        value = self.value(figures)
        if value is None:
            return NOT_MEASURED
        return PASS if OPERATORS[self.op](value, self.target) else FAIL


@dataclass
class Context:
    """What the runner hands a benchmark: the service (started, or at --url) and the mode."""

    url: str
    service: Service | None = None  # set when the runner started it
    quick: bool = False

    @property
    def database_url(self) -> str | None:
        if self.service is not None and self.service.database_url:
            return self.service.database_url
        return os.environ.get("DATABASE_URL")

    def require_service(self) -> Service:
        """The started service, for a benchmark that writes into its store or reads its
        processes."""
        if self.service is None or not self.service.database_url:
            raise Skip("needs a service the runner started (no --url)")
        return self.service


@dataclass(frozen=True)
class Benchmark:
    name: str
    about: str
    run: Callable[[Context, Settings], Figures]
    goals: list[Goal] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # name: default or (default, quick)
    needs_service: bool = False
    # The started service's environment beyond the runner's (rate limits off, a queue of its
    # own): fixed, or worked out from the settings.
    service_env: dict[str, str] | Callable[[Settings], dict[str, str]] = field(default_factory=dict)

    def resolved(self, quick: bool, given: Mapping[str, Any] | None = None) -> Settings:
        """The settings of a run: each default (or quick value), then what was given."""
        chosen = {
            name: (value[1] if quick else value[0]) if isinstance(value, tuple) else value
            for name, value in self.settings.items()
        }
        return chosen | {k: v for k, v in (given or {}).items() if v is not None}

    def env(self, settings: Settings) -> dict[str, str]:
        return self.service_env(settings) if callable(self.service_env) else self.service_env
