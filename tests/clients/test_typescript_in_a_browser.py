"""@cardroom/client in a browser (Debian's headless Chromium): a page of another origin plays a
seat of a live game through the client and follows it with `openEventSource`, whose stream is
opened with tickets; a cut midway is resumed with a fresh ticket, no event lost or repeated."""

from __future__ import annotations

import functools
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from testing.browser.chromium import find_chromium, unavailable_reason
from tests.clients.test_generators import TYPESCRIPT, _node_tool

PAGE = """<!doctype html><meta charset="utf-8"><title>client</title>
<script type="module">
import { Cardroom, firstLegalAction } from "./index.js";
const cr = new Cardroom({ baseUrl: new URLSearchParams(location.search).get("server") });
const table = await cr.createGame("trick_and_snipers", [
  { kind: "human", name: "Ann" },
  { kind: "bot", level: "random" },
  { kind: "bot", level: "random" },
]);
const seat = table.seat(0);
window.seen = [];
let busy = Promise.resolve();
const maybeAct = () => (busy = busy.then(async () => {
  const game = await seat.view();
  if (game.you?.legal_actions.length) await seat.act(firstLegalAction(game)).catch(() => null);
}));
const stream = seat.openEventSource((event) => {
  window.seen.push(event.version);
  if (event.type === "GameEnded") {
    stream.close();
    window.finalVersion = event.version;
  } else maybeAct();
});
maybeAct();
</script>
"""


@contextmanager
def static_site(directory: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def chromium() -> str:
    path = find_chromium()
    if path is None:
        if os.environ.get("REQUIRE_BROWSER_TESTS"):
            pytest.fail(f"REQUIRE_BROWSER_TESTS is set but {unavailable_reason()}", pytrace=False)
        pytest.skip(str(unavailable_reason()))
    return path


@pytest.mark.browser
def test_a_browser_page_follows_a_game_by_eventsource_with_tickets_across_a_cut(
    chromium, proxy, tmp_path
):
    from playwright.sync_api import sync_playwright

    subprocess.run([_node_tool("tsc"), "-p", TYPESCRIPT], check=True, timeout=300)
    site = tmp_path / "site"
    site.mkdir()
    for built in (TYPESCRIPT / "dist/src").glob("*.js"):
        (site / built.name).write_bytes(built.read_bytes())
    (site / "index.html").write_text(PAGE)
    with static_site(site) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        page = browser.new_page()
        errors: list[str] = []
        tickets: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("request", lambda r: tickets.append(r.url) if "stream-ticket" in r.url else None)
        page.goto(f"{origin}/index.html?server={proxy.url}")
        page.wait_for_function("window.seen && window.seen.length >= 10", timeout=30_000)
        proxy.cut()  # the EventSource errors; the helper reopens with a fresh ticket and `after`
        time.sleep(0.2)
        page.wait_for_function("window.finalVersion !== undefined", timeout=90_000)
        seen, final = page.evaluate("[window.seen, window.finalVersion]")
        browser.close()
    assert errors == [] and len(tickets) >= 2  # the stream was opened again after the cut
    assert seen == list(range(1, final + 1))
