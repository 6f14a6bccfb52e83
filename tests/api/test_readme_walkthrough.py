"""The README's curl walkthrough runs as written, against a live server with a real worker: so
it cannot rot. The lines are taken from the README itself."""

from __future__ import annotations

import re
import subprocess

from tests.api.test_event_stream import serving
from tests.service import ROOT

README = ROOT / "README.md"


def walkthrough() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## A game with curl", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert match, "no sh block under 'A game with curl'"
    return match.group(1)


def test_the_readme_curl_walkthrough_plays_a_game_to_a_verified_export(settings, worker, tmp_path):
    before = set(ROOT.iterdir())
    with serving(settings) as url:
        run = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", walkthrough()],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin", "B": url, "TMPDIR": str(tmp_path), "HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=240,
        )
    assert run.returncode == 0, f"stdout:\n{run.stdout[-3000:]}\nstderr:\n{run.stderr[-3000:]}"
    assert re.search(r"HTTP/1\.[01] (304|200)", run.stdout)  # the If-None-Match line
    assert '"code"' not in run.stdout, run.stdout[-3000:]  # no step answered with a problem
    assert "VERIFIED" in run.stdout and "NOT VERIFIED" not in run.stdout
    assert "info fair: yes" in run.stdout  # the walkthrough's seed came after the commitment
    assert re.search(r'"my_turn":\s*true', run.stdout)  # the player's inbox found its table
    assert set(ROOT.iterdir()) == before  # nothing lands in the repository
