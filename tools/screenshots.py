"""Screenshots of the web client (`/play`) for docs/screenshots, in English and in French: the
lobby of a first visit, each game mid-play at phone (360x740) and desktop (1280x800) size, its
result screen at both sizes, the replay viewer with its verified badge, a guide, the glossary,
the player's tables and the player's own page (its key not shown), "Play now" searching and a
leaderboard.

    .venv/bin/python -m tools.screenshots            # starts its own service, as `make run` does
    .venv/bin/python -m tools.screenshots --url http://127.0.0.1:8000 --languages fr

Plays as seat 0 against `basic` bots by clicking the page, the way a person would, in a browser
whose language is the one pictured (the page follows it). The leaderboard is made first, of
real rated games: tables of the three rated bot levels alone, played to their end by the
workers until each level has left its provisional games. `--games` with no game leaves the
games (and the pictures that need one finished) out. Needs Debian's Chromium (`apt-get install
chromium`); never downloads a browser. Files: `<page>-<language>-<size>.png`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path

import requests
from playwright.sync_api import Browser, Page, sync_playwright

from bench.support.service import started_service

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
# How many of your own moves to make before the mid-game picture: far enough in that the
# game's own table state shows (relics taken, river filled, tricks won).
MOVES_BEFORE_PICTURE = {
    "st_patrick": 5,
    "ouroboros_trick": 3,
    "trick_and_snipers": 2,  # a game may end after three tricks
    "saint_poker": 4,
}
PLAYERS = {"st_patrick": 4, "ouroboros_trick": 4, "trick_and_snipers": 4, "saint_poker": 3}
BOARD = "trick_and_snipers"  # the leaderboard pictured
RATED_GAMES = 10  # a rating leaves its provisional games after this many (events/ratings.py)
BOT_LEVELS = ("random", "basic", "strong")
SEED_TIMEOUT = 600.0


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        sys.exit("no Chromium: apt-get install chromium (Debian's package)")
    return found


def my_move(page: Page) -> bool:
    """Make one legal move if the page offers one; True if it did."""
    if page.query_selector("#send-count"):
        page.click("#send-count")
        return True
    if page.query_selector("#send-cards"):
        # One card at a time, each click seen pressed before the next (the hand redraws).
        unpicked = '#hand button.card.legal:not([aria-pressed="true"]):not([disabled])'
        for picked in range(1, 20):
            if page.is_enabled("#send-cards") or not page.locator(unpicked).count():
                break
            page.locator(unpicked).first.click()
            page.wait_for_function(
                "(n) => document.querySelectorAll('#hand button.card[aria-pressed=\"true\"]')"
                ".length >= n || !document.querySelector('#send-cards')",
                arg=picked,
            )
        if page.query_selector("#send-cards"):
            page.click("#send-cards")
        return True
    legal = page.locator("#table button.card.legal")
    if legal.count():
        legal.last.click()
        return True
    plain = page.query_selector("[data-action=pass_relics]")
    if plain:
        plain.click()
        return True
    return False


def wait_for_turn_or_end(page: Page, timeout: float = 30.0) -> None:
    page.wait_for_function(
        "() => document.querySelector('#table').dataset.status === 'finished'"
        " || document.querySelector('#hand button.card.legal, #table button.card.legal,"
        " #send-count, [data-action=pass_relics]')",
        timeout=timeout * 1000,
    )


def shoot(page: Page, name: str, size: dict, full_page: bool | None = None) -> None:
    page.set_viewport_size(size)
    time.sleep(0.3)  # let the layout settle at the new size
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=size is PHONE if full_page is None else full_page)
    print(f"  wrote {path.relative_to(OUT.parents[1])}", flush=True)


def both_sizes(page: Page, name: str, lang: str) -> None:
    shoot(page, f"{name}-{lang}-desktop", DESKTOP)
    shoot(page, f"{name}-{lang}-phone", PHONE)
    page.set_viewport_size(DESKTOP)


def play_game(page: Page, url: str, game_type: str, lang: str) -> str:
    """Plays a whole game, photographed mid-play and at its result; returns its id."""
    page.set_viewport_size(DESKTOP)
    page.goto(f"{url}/play")
    page.wait_for_selector("#create-table")
    page.select_option("#type", game_type)
    page.select_option("#players", str(PLAYERS[game_type]))
    if page.query_selector("#welcome #name"):  # the first table makes the player
        page.fill("#welcome #name", "Ann")
    page.click("#create-table")
    page.wait_for_selector("#table[data-status=active]")
    game_id = page.url.split("#/games/", 1)[1]
    moves = 0
    while page.get_attribute("#table", "data-status") != "finished":
        wait_for_turn_or_end(page)
        if moves == MOVES_BEFORE_PICTURE[game_type]:
            both_sizes(page, game_type, lang)
        if my_move(page):
            moves += 1
            page.wait_for_timeout(150)
    page.wait_for_selector("#result svg#chart")
    page.wait_for_timeout(300)
    page.evaluate("document.querySelector('#result').scrollIntoView()")
    shoot(page, f"{game_type}-result-{lang}-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    page.evaluate("document.querySelector('#result').scrollIntoView()")
    shoot(page, f"{game_type}-result-{lang}-phone", PHONE, full_page=False)
    return game_id


def seed_leaderboard(url: str) -> None:
    """Rated tables of the three bot levels alone, played to their end by the workers, until
    each level is on the leaderboard (its rated games past the provisional ones)."""
    if len(requests.get(f"{url}/leaderboards/{BOARD}", timeout=30).json()["items"]) >= 3:
        return  # a running service that has them already
    seats = [{"kind": "bot", "level": level} for level in BOT_LEVELS]
    body = {"type": BOARD, "seats": seats, "options": {"rated": True}}

    def one_game(number: int) -> None:
        made = requests.post(f"{url}/games", json=body, timeout=30)
        made.raise_for_status()
        game_id = made.json()["id"]
        deadline = time.monotonic() + SEED_TIMEOUT
        while requests.get(f"{url}/games/{game_id}", timeout=30).json()["status"] != "finished":
            if time.monotonic() > deadline:
                sys.exit(f"rated bot game {game_id} did not finish in {SEED_TIMEOUT:.0f} s")
            time.sleep(0.5)
        print(f"  rated bot game {number}/{RATED_GAMES} finished", flush=True)

    print(f"[leaderboard] {RATED_GAMES} rated {BOARD} games of bots", flush=True)
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(one_game, range(1, RATED_GAMES + 1)))
    deadline = time.monotonic() + SEED_TIMEOUT
    while len(requests.get(f"{url}/leaderboards/{BOARD}", timeout=30).json()["items"]) < 3:
        if time.monotonic() > deadline:
            sys.exit("the ratings workers never put the three bot levels on the leaderboard")
        time.sleep(0.5)


def play_now_and_leaderboard(page: Page, url: str, lang: str) -> None:
    """Play now searching for a few seconds (then cancelled), and the leaderboard."""
    page.set_viewport_size(DESKTOP)
    page.goto(f"{url}/play")
    page.wait_for_selector("#queue-form #queue-type")
    if page.query_selector("#welcome #name"):  # joining the queue makes the player
        page.fill("#welcome #name", "Ann")
    page.select_option("#queue-type", "st_patrick")
    page.uncheck("#queue-bots")  # nobody else waits: it searches until cancelled
    page.click("#queue-join")
    page.wait_for_selector("#queue-waiting:not([hidden])")
    page.wait_for_timeout(3_000)  # a few seconds counted
    both_sizes(page, "playnow", lang)
    page.click("#queue-cancel")
    page.wait_for_selector("#queue-form:not([hidden])")
    page.goto(f"{url}/play#/leaderboard/{BOARD}")
    page.wait_for_selector("#board-rows tr")
    both_sizes(page, "leaderboard", lang)


def pictures(browser: Browser, url: str, games: list[str], lang: str) -> None:
    context = browser.new_context(locale=LOCALES[lang], viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{url}/play")
    page.wait_for_selector("#game-types li[data-type]")
    both_sizes(page, "lobby", lang)
    page.goto(f"{url}/play#/rules/st_patrick")
    page.wait_for_selector("#guide .guide-body h2")
    shoot(page, f"guide-{lang}-phone", PHONE, full_page=False)
    page.goto(f"{url}/play#/glossary")
    page.wait_for_selector("#glossary .entry")
    shoot(page, f"glossary-{lang}-desktop", DESKTOP, full_page=False)
    play_now_and_leaderboard(page, url, lang)
    page.set_viewport_size(DESKTOP)
    finished = None
    for number, game_type in enumerate(games, 1):
        print(f"[{lang} {number}/{len(games)}] {game_type}", flush=True)
        finished = play_game(page, url, game_type, lang)
    if finished:
        page.goto(f"{url}/play#/replay/{finished}/12")
        page.wait_for_selector("#verified[data-verified]", timeout=30_000)
        both_sizes(page, "replay", lang)
        page.goto(f"{url}/play#/tables")
        page.wait_for_selector("#mine li[data-game]")
        both_sizes(page, "tables", lang)
        page.goto(f"{url}/play#/me")
        page.wait_for_selector("#me-name")
        both_sizes(page, "me", lang)
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running Cardroom (default: start one)")
    parser.add_argument("--games", nargs="*", default=list(MOVES_BEFORE_PICTURE))
    parser.add_argument("--languages", nargs="*", default=list(LOCALES), choices=list(LOCALES))
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    service = nullcontext(None) if args.url else started_service()
    with service as started, sync_playwright() as p:
        url = args.url or started.url
        seed_leaderboard(url)
        browser = p.chromium.launch(executable_path=chromium(), headless=True)
        for lang in args.languages:
            pictures(browser, url, args.games, lang)
        browser.close()


if __name__ == "__main__":
    main()
