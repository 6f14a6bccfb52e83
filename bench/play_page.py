"""How soon a bot's move shows on the /play page, and how much the pages weigh: whole games of
you and basic bots played by clicks in headless Chromium (the system's, never a downloaded one),
each bot move's lag from its `recorded_at` until the page rendered its version and until it
showed in the page's log; each page's response bodies loaded in a fresh context (no streams)."""

from __future__ import annotations

import sys
from contextlib import ExitStack, closing
from typing import Any

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings, Skip
from bench.support.players import parse_time
from bench.support.stats import Progress, ms, ms_percentiles, percentile
from domain.games import get_game_type
from testing.browser.chromium import find_chromium, unavailable_reason
from testing.browser.pages import Browsing, new_browsing
from testing.browser.secrets import all_events, http_reader
from testing.browser.table_page import TablePage, create_table
from testing.browser.weight import measure_page_weight

GAMES = [("trick_and_snipers", 3), ("ouroboros_trick", 3), ("st_patrick", 3), ("saint_poker", 3)]


class Run:
    """What the progress line shows, and the samples (seconds)."""

    def __init__(self) -> None:
        self.game = 0
        self.moves = 0
        self.render: list[float] = []
        self.log: list[float] = []
        self.missing = 0  # bot moves the page never rendered or logged


def bot_move_lags(browsing: Browsing, url: str, game_id: str, game_type: str, run: Run) -> None:
    """Adds the render and log lags of every bot move of a finished game to `run`."""
    rendered = browsing.page.evaluate("() => window.cardroom.renderedAt")
    logged = browsing.page.evaluate("() => window.cardroom.loggedAt")
    entry = browsing.seat_entry(game_id)
    assert entry is not None, "the page's seat was not found"
    seat = entry["seat"]
    choices = set(get_game_type(game_type).choices)
    for event in all_events(http_reader(url), game_id):
        if event["type"] not in choices or event["seat"] in (None, seat):
            continue
        committed = parse_time(event["recorded_at"]).timestamp()
        version = str(event["version"])
        for moments, samples in ((rendered, run.render), (logged, run.log)):
            if version in moments:
                samples.append(moments[version] / 1000.0 - committed)
            else:
                run.missing += 1


def play(url: str, browser: Any, s: Settings, run: Run) -> None:
    for index in range(s["games"]):
        game_type, players = GAMES[index % len(GAMES)]
        run.game = index + 1
        with closing(new_browsing(browser, url, s["viewport"])) as browsing:
            game_id = create_table(browsing, game_type, players, ["bot:basic"] * (players - 1))
            table = TablePage(browsing)
            table.play_to_the_end(before_move=lambda t, s, moves: setattr(run, "moves", moves))
            bot_move_lags(browsing, url, game_id, game_type, run)
            print(f"{game_type}: {len(table.moves)} moves by clicks", file=sys.stderr)


def weigh(url: str, browser: Any) -> Figures:
    with ExitStack() as opened:  # every page's context closed at the end
        weight = measure_page_weight(
            lambda viewport: opened.enter_context(closing(new_browsing(browser, url, viewport))),
            url,
        )
    return {
        **{f"page_weight_{p.page}_kb": p.bytes / 1024 for p in weight.pages},
        "page_weight_heaviest_kb": weight.heaviest.bytes / 1024,
    }


def run(context: Context, s: Settings) -> Figures:
    if reason := unavailable_reason():
        raise Skip(reason)
    from playwright.sync_api import sync_playwright

    run = Run()

    def render(elapsed: float) -> str:
        p95 = ms(percentile(run.render, 95))
        seen = f"moves {run.moves}  bot moves seen {len(run.render)}  render p95 {p95:.0f} ms"
        return f"[play_page] game {run.game}/{s['games']}  {seen}"

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=find_chromium(), headless=True)
        with closing(launched) as browser:
            with Progress(render):
                play(context.url, browser, s, run)
            figures = weigh(context.url, browser)
    return {
        "bot_moves": len(run.render),
        **ms_percentiles("render", run.render, 50, 95),
        **ms_percentiles("log", run.log, 95),
        "bot_moves_never_shown": run.missing,
        **{k: round(v, 1) for k, v in figures.items()},
    }


BENCHMARK = Benchmark(
    name="play_page",
    about="a bot's move on the /play page in headless Chromium, and the pages' weight",
    run=run,
    needs_service=True,
    settings={"games": (4, 1), "viewport": "desktop"},
    goals=[
        Goal("render_p95_ms", "<", 300, "ms", "a bot's committed move rendered on the `/play` "
            "page p95 < 300 ms"),
        Goal("bot_moves_never_shown", "==", 0, about="every one shown"),
        Goal("page_weight_heaviest_kb", "<", 300, "KB", "every page under 300 KB with everything "
            "it loads"),
    ],
)  # fmt: skip
