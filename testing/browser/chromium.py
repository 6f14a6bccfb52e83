"""Finding Debian's Chromium and Playwright: the browser tests run only when both are there.

No browser build is ever downloaded (`playwright install` is never run): Playwright drives the
system's Chromium through `executable_path`.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

HOW_TO_ENABLE = "apt-get install chromium chromium-driver, then make test"
CANDIDATES = ("/usr/bin/chromium",)
NAMES = ("chromium", "chromium-browser")


def find_chromium() -> str | None:
    """`CHROMIUM` when set, else /usr/bin/chromium, else `chromium` or `chromium-browser` on
    PATH; None when there is none."""
    given = os.environ.get("CHROMIUM", "").strip()
    if given:
        found = shutil.which(given)
        return found or (given if Path(given).is_file() else None)
    for path in CANDIDATES:
        if Path(path).is_file() and os.access(path, os.X_OK):
            return path
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable_reason() -> str | None:
    """Why the browser tests cannot run here, in one line; None when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "browser tests skipped: playwright is not installed (pip install -e '.[dev]')"
    if find_chromium() is None:
        where = f" at CHROMIUM={os.environ['CHROMIUM']}" if os.environ.get("CHROMIUM") else ""
        return f"browser tests skipped: no Chromium{where} ({HOW_TO_ENABLE})"
    return None
