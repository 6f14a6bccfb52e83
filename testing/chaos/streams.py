"""A spectator following the live event stream of every game a client plays, through the
faults: it resumes with Last-Event-ID whenever its stream ends early (the API or the database
went away), and records the versions it got, which must be every version once, in order."""

from __future__ import annotations

import json
import threading
import time

import requests

from testing.chaos.players import GaveUp, Player, Traffic
from testing.sse import messages


class Follower(threading.Thread):
    def __init__(self, player: Player, traffic: Traffic) -> None:
        super().__init__(daemon=True, name=f"follower-of-{player.name}")
        self.player = player
        self.traffic = traffic
        self.apis = player.apis
        self.api = 0
        self.received: dict[str, list[int]] = {}
        self.resumed = 0  # streams opened again after one ended early
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            followed = 0
            while True:
                if followed < len(self.player.games):
                    self.follow(self.player.games[followed].game_id)
                    followed += 1
                elif not self.player.is_alive():
                    return
                else:
                    time.sleep(0.05)
        except BaseException as error:  # reported by the scenario
            self.error = error

    def follow(self, game_id: str) -> None:
        versions = self.received.setdefault(game_id, [])
        while True:
            if time.monotonic() > self.player.deadline or self.player.halted.is_set():
                raise GaveUp(f"the stream of {game_id} did not reach the end")
            headers = {"Last-Event-ID": str(versions[-1])} if versions else {}
            url = f"{self.apis[self.api]}/games/{game_id}/events/stream"
            try:
                with requests.get(url, headers=headers, stream=True, timeout=(5, 40)) as response:
                    self.traffic.add("GET", "/games/{id}/events/stream", response)
                    if response.status_code == 200 and self._read(response, versions):
                        return
            except requests.RequestException:
                self.api = (self.api + 1) % len(self.apis)
            self.resumed += 1
            time.sleep(0.2)

    def _read(self, response: requests.Response, versions: list[int]) -> bool:
        """Reads the stream until it ends; True if it sent the game's last event."""
        for message in messages(response.iter_lines(decode_unicode=True)):
            if "data" in message:
                event = json.loads(message["data"])
                versions.append(event["version"])
                if event["type"] == "GameEnded":
                    return True
        return False
