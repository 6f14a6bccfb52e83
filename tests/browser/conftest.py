"""The browser suite's harness: the app on a live threaded server, a real worker process (bots
and round scoring), Debian's Chromium driven by Playwright, and `open_page` for pages that
record what they do.

`settings` are tests/api/conftest.py's (fixed decks allowed, a short sweep, rate limits at their
defaults but for the players made, one per browser context) on a database, queue and signing
key of their own: in one `make test` session the worker tests/api starts and the one started
here never take each other's jobs. Its `app` fixture and `start_worker`/`stop_worker` are
imported from there.

Without Playwright or a Chromium every test marked `browser` is skipped before its fixtures
start anything (no server, no worker), from one place, so pytest's summary folds them into one
line.
"""

from __future__ import annotations

import functools
import logging
import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from events.operations.settings import Settings
from testing.browser.chromium import find_chromium, unavailable_reason
from testing.browser.pages import Browsing, new_browsing
from testing.databases import temporary_database
from tests.api.conftest import app  # noqa: F401 (a fixture)
from tests.api.test_event_stream import serving
from tests.browser.accessibility import HOW_TO_INSTALL, axe_source
from tests.conftest import SESSION_ID, _required_env
from tests.service import start_worker, stop_worker


@dataclass(frozen=True)
class LiveServer:
    url: str
    database_url: str
    app: Any  # the Flask app it serves, for a test that changes a setting for a while


@functools.cache
def _unavailable() -> str | None:
    return unavailable_reason()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skips a `browser` test when there is no Chromium: raised here rather than in a fixture
    (whose skips pytest reports at each test's own line), so `-ra` shows one line for all."""
    if item.get_closest_marker("browser") is not None and _unavailable():
        if os.environ.get("REQUIRE_BROWSER_TESTS"):  # .ci/run: CI must run them, not skip
            pytest.fail(f"REQUIRE_BROWSER_TESTS is set but {_unavailable()}", pytrace=False)
        pytest.skip(_unavailable())


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium (or CHROMIUM); a test that uses the browser without the marker skips
    here."""
    reason = _unavailable()
    if reason:
        pytest.skip(reason)
    path = find_chromium()
    assert path is not None
    return path


@pytest.fixture(scope="session")
def axe(chromium_path: str) -> str:
    """axe-core's source, for `accessibility.serious_violations`. Missing: a skip, or a failure
    under REQUIRE_BROWSER_TESTS (CI installs it), saying how to install it."""
    source = axe_source()
    if source is None:
        reason = f"axe-core is not installed for the browser tests ({HOW_TO_INSTALL})"
        if os.environ.get("REQUIRE_BROWSER_TESTS"):
            pytest.fail(f"REQUIRE_BROWSER_TESTS is set but {reason}", pytrace=False)
        pytest.skip(reason)
    return source


@pytest.fixture(scope="session")
def settings(redis_url: str, queue_name: str, tmp_path_factory) -> Iterator[Settings]:
    """As tests/api/conftest.py's, on this directory's own database and queue."""
    name = f"cardroom_test_{SESSION_ID}_browser"
    with temporary_database(_required_env("DATABASE_URL"), name) as database_url:
        yield Settings(
            audit_key_file=str(tmp_path_factory.mktemp("browser-keys") / "audit-key.pem"),
            database_url=database_url,
            redis_url=redis_url,
            allow_fixed_deck=True,
            queue_name=f"{queue_name}-browser",
            log_level="WARNING",
            db_pool_size=8,
            sweep_after_seconds=2.0,
            # The page makes a player in each fresh browser context that takes a seat, and
            # every context of the suite comes from one address, so the per-address caps would
            # count every page of the session as one client's: a closed page's stream holds its
            # slot until the server's next heartbeat finds it gone (the other limits stay at
            # their defaults; tests/api tests the stream cap).
            rate_limit_players="10000/hour",
            max_streams_per_client=1000,
        )


@pytest.fixture()
def client(app):  # noqa: F811 (the imported fixture)
    return app.test_client()


@pytest.fixture(scope="session")
def browser_worker(chromium_path: str, settings: Settings) -> Iterator[subprocess.Popen]:
    """A worker process on this session's database and queue: the bots and the scoring."""
    process = start_worker(settings)
    yield process
    stop_worker(process)


@pytest.fixture(scope="session")
def live_server(
    chromium_path: str,
    settings: Settings,
    browser_worker: subprocess.Popen,
) -> Iterator[LiveServer]:
    """The app on a real threaded server on a free port, with the worker running."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
    with serving(settings) as url:
        yield LiveServer(url, settings.database_url, serving.app)


# Package-scoped: Playwright's sync API holds an asyncio loop open on this thread while it runs,
# and the tests after this folder (the async client's) need the thread without one.
@pytest.fixture(scope="package")
def browser(chromium_path: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture()
def open_page(browser, live_server: LiveServer) -> Iterator[Callable[..., Browsing]]:
    """`open_page("phone" | "desktop", locale=None)`: a new browser context and page at that
    viewport (and browser language), recording every request, response, console error and page
    error. At the end of the test,
    every request must have gone to the live server, no page may have thrown, and none may
    have been answered 429 (rate limits are at their defaults) or 5xx."""
    opened: list[Browsing] = []

    def open_one(viewport: str = "desktop", locale: str | None = None) -> Browsing:
        browsing = new_browsing(browser, live_server.url, viewport, locale)
        opened.append(browsing)
        return browsing

    yield open_one
    problems = []
    for browsing in opened:
        foreign = browsing.record.foreign_requests(live_server.url)
        if foreign:
            problems.append(f"{browsing.name} requested off the server: {foreign[:10]}")
        if browsing.record.page_errors:
            problems.append(f"{browsing.name} threw: {browsing.record.page_errors[:10]}")
        refused = [  # a rate limit met at default limits, or a server error, is worth a look
            f"{r.method} {r.url} -> {r.status} {r.body}"
            for r in browsing.record.responses
            if (r.status == 429 or r.status >= 500) and r.url not in browsing.refusals_served
        ]
        if refused:
            problems.append(f"{browsing.name} got: {refused[:10]}")
        browsing.close()
    assert not problems, "\n".join(problems)
