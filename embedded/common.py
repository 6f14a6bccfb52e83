"""What the embedded servers share: logging, the readiness timeout, a missing package."""

from __future__ import annotations

import sys

READY_TIMEOUT = 30.0


def log(message: str) -> None:
    print(f"[cardroom] {message}", file=sys.stderr, flush=True)


class EmbeddedUnavailable(RuntimeError):
    """The embedded server's package isn't installed (no wheel for this Python)."""


def missing(what: str, package: str, variable: str) -> EmbeddedUnavailable:
    return EmbeddedUnavailable(
        f"embedded {what} needs the '{package}' package, which has no build for Python "
        f"{sys.version_info.major}.{sys.version_info.minor}: use Python 3.11 or 3.12 "
        f"(make PYTHON=python3.12), or set {variable} to a running server"
    )
