"""cardroom-bot: plays for a player key with an engine in any language (engine.py). It joins
the matchmaking queue, plays each table it is seated at (up to --concurrency at once,
--games in all), prints one line per finished game, and exits 0."""

from __future__ import annotations

import argparse
import logging
import queue
import sys
import threading
import time

from .engine import Engine
from .errors import (
    AlreadyQueued,
    CardroomError,
    GameFinished,
    IllegalAction,
    ProblemError,
    ValidationError,
    VersionConflict,
)
from .models import Game, first_legal_action
from .sync import Cardroom, Seat

log = logging.getLogger("cardroom-bot")
TRIES = 3  # an engine whose action is refused is asked this many times in all
STARTS = {"match_found", "game_started", "your_turn"}


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cardroom-bot", description=__doc__)
    parser.add_argument("--server", required=True, help="the server's base URL")
    parser.add_argument("--key", required=True, help="the player key the bot plays for")
    parser.add_argument(
        "--engine", required=True, help='the engine\'s command, e.g. "python3 e.py"'
    )
    parser.add_argument(
        "--type", required=True, dest="game_type", help="the game type to queue for"
    )
    parser.add_argument("--players", help="table sizes accepted, e.g. 2,3 (default: all)")
    parser.add_argument("--games", type=int, default=1, help="games to play in all (default 1)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--unrated", action="store_true", help="queue for unrated tables")
    parser.add_argument("--bots-after", type=int, help="seconds before bots fill the table")
    parser.add_argument(
        "--engine-timeout", type=float, default=10.0, help="seconds an engine has to answer"
    )
    return parser.parse_args(argv)


class Bridge:
    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.room = Cardroom(options.server, key=options.key)
        self.engine = Engine(options.engine, options.engine_timeout)
        self.found: queue.Queue[str] = queue.Queue()
        self.finished: queue.Queue[str] = queue.Queue()
        self.seen: set[str] = set()  # games started, or finished before this run

    def run(self) -> int:
        wanted, playing, done, queued = self.options.games, 0, 0, False
        for game in self.room.my_games():
            if game["status"] == "finished":
                self.seen.add(game["game_id"])
            else:
                self.found.put(game["game_id"])  # a table of an earlier run: played on
        threading.Thread(target=self._listen, daemon=True).start()
        try:
            while done < wanted:
                if not queued and playing < self.options.concurrency and done + playing < wanted:
                    queued = self._join_queue()
                game_id: str | None
                try:
                    game_id = self.found.get(timeout=1.0)
                except queue.Empty:
                    game_id = self._matched_game()
                if game_id is not None and game_id not in self.seen and done + playing < wanted:
                    self.seen.add(game_id)
                    playing, queued = playing + 1, False
                    threading.Thread(target=self._play, args=(game_id,), daemon=True).start()
                while not self.finished.empty():
                    self.finished.get()
                    playing, done = playing - 1, done + 1
        finally:
            self.engine.close()
        return 0

    def _join_queue(self) -> bool:
        options = self.options
        players = [int(size) for size in options.players.split(",")] if options.players else None
        try:
            self.room.join_queue(
                options.game_type, players=players, rated=not options.unrated,
                bots_after_seconds=options.bots_after,
            )  # fmt: skip
        except AlreadyQueued:
            pass
        except CardroomError as error:
            log.warning("could not join the queue (%s); trying again", error)
            time.sleep(1.0)
            return False
        return True

    def _matched_game(self) -> str | None:
        """What the queue says it matched: the notice may have been missed."""
        try:
            standing = self.room.queue()
        except CardroomError:
            return None
        match = standing.get("match") or {}
        return match.get("game_id") if standing.get("status") == "matched" else None

    def _listen(self) -> None:
        for notice in self.room.notices():
            if notice.kind in STARTS and notice.game_id is not None:
                self.found.put(notice.game_id)

    def _play(self, game_id: str) -> None:
        seat = Seat(self.room, game_id, -1, self.options.key)  # the key acts as its seat here
        while True:
            try:
                game = self._play_on(seat)
                break
            except CardroomError as error:  # the server went away: the stream resumes later
                log.warning("game %s: %s; going on", game_id, error)
                time.sleep(1.0)
        you = game.you.seat if game.you else None
        winners = game.result.winners if game.result else []
        outcome = "won" if you in winners else "lost"
        print(f"game {game_id} {game.type} finished: seat {you} {outcome}", flush=True)
        self.finished.put(game_id)

    def _play_on(self, seat: Seat) -> Game:
        game = seat.view()
        acted_at = -1
        events = seat.events(after=game.version)
        while not game.finished:
            if game.my_turn() and game.version != acted_at:
                self._act(seat, game)
                acted_at = game.version
            next(events, None)  # woken by the next event (or the stream's end)
            game = seat.view()
        return game

    def _act(self, seat: Seat, game: Game) -> None:
        for attempt in range(1, TRIES + 1):
            action = self.engine.ask(game.id, game.type, game.raw)
            if action is None:
                break
            try:
                seat.act(action)
                return
            except (VersionConflict, GameFinished):
                return  # the game moved on: the next view says what is wanted now
            except (IllegalAction, ValidationError) as refused:
                log.warning(
                    "game %s: the server refused the engine's action %s (%s: %s) [%d/%d]",
                    game.id, action, refused.body.get("code"), refused.detail, attempt, TRIES,
                )  # fmt: skip
                game = seat.view()
                if not game.my_turn():
                    return
        fallback = first_legal_action(game)
        log.warning("game %s: playing the first legal action instead: %s", game.id, fallback)
        try:
            seat.act(fallback)
        except ProblemError as error:  # the game moved on meanwhile
            log.warning("game %s: the fallback was refused too (%s)", game.id, error)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s cardroom-bot %(message)s"
    )
    options = parse(sys.argv[1:] if argv is None else argv)
    return Bridge(options).run()


if __name__ == "__main__":
    raise SystemExit(main())
