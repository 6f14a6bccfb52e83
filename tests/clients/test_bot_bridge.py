"""cardroom-bot against a live server: small engines in Python and in JavaScript play whole
games of every type through it, several at once; an engine that answers an illegal action,
or garbage, or dies gets the first legal action played for it, says so in the log, and its
game goes on to the end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cardroom_client import Cardroom

ENGINES = Path(__file__).parent / "engines"
BRIDGE = Path(sys.executable).parent / "cardroom-bot"
GAME_TYPES = ["st_patrick", "ouroboros_trick", "trick_and_snipers", "saint_poker"]


def start_bridge(
    server_url: str, tmp_path: Path, engine: str, game_type: str, *options: str
) -> tuple[subprocess.Popen, Path, Path]:
    _player, key = Cardroom.create_player(server_url, f"bot for {game_type}")
    out, err = tmp_path / f"{game_type}.out", tmp_path / f"{game_type}.err"
    command = [BRIDGE, "--server", server_url, "--key", key, "--engine", engine,
               "--type", game_type, "--unrated", "--bots-after", "0", *options]  # fmt: skip
    with out.open("w") as stdout, err.open("w") as stderr:
        return subprocess.Popen(command, stdout=stdout, stderr=stderr), out, err


def finished_lines(out: Path) -> list[str]:
    return [line for line in out.read_text().splitlines() if " finished: " in line]


def play_every_type(server_url: str, tmp_path: Path, engine: str) -> None:
    bridges = [
        start_bridge(server_url, tmp_path, engine, game_type, "--games", "3", "--concurrency", "2")
        for game_type in GAME_TYPES
    ]
    for (bridge, out, err), game_type in zip(bridges, GAME_TYPES, strict=True):
        assert bridge.wait(timeout=300) == 0, err.read_text()
        lines = finished_lines(out)
        assert len(lines) == 3 and all(game_type in line for line in lines), out.read_text()
        assert "refused" not in err.read_text() and "instead" not in err.read_text()


def test_a_python_engine_plays_whole_games_of_every_type_several_at_once(server_url, tmp_path):
    play_every_type(server_url, tmp_path, f"{sys.executable} {ENGINES / 'first_legal.py'}")


def test_a_node_engine_plays_whole_games_of_every_type_several_at_once(server_url, tmp_path):
    play_every_type(server_url, tmp_path, f"node {ENGINES / 'first_legal.mjs'}")


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("illegal", "the server refused the engine's action"),
        ("garbage", "engine said (not JSON): thinking..."),
        ("dies", "engine: exited with code 3"),
    ],
)
def test_a_misbehaving_engine_gets_the_first_legal_action_and_the_game_goes_on(
    server_url, tmp_path, mode, said
):
    engine = f"{sys.executable} {ENGINES / 'misbehaving.py'} {mode}"
    bridge, out, err = start_bridge(
        server_url, tmp_path, engine, "trick_and_snipers", "--engine-timeout", "0.5"
    )
    assert bridge.wait(timeout=300) == 0, err.read_text()
    log = err.read_text()
    assert len(finished_lines(out)) == 1, out.read_text() + log
    assert said in log and "playing the first legal action instead" in log
