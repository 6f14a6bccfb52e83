"""docs/audit.md says what the code does: its table of origins is domain/kit/origins.py's, it names
every key an export has, every hex value it quotes is one of its example's, and the verifier's
output it shows is what the verifier prints."""

from __future__ import annotations

import re
from pathlib import Path

from events.audit.chain import GENESIS
from events.audit.export import EVENT_KEYS, HEADER_KEYS
from events.audit.verify import verify
from tests.audit.event_shapes import origins

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "audit.md").read_text("utf-8")
EXAMPLES = "".join(path.read_text("utf-8") for path in sorted((ROOT / "docs/audit").iterdir()))
# The public log's vectors (section 10) are the guide's own, held true by test_log_vectors.py.
EXAMPLES += GUIDE.split("<!-- log-vectors:begin -->")[1].split("<!-- log-vectors:end -->")[0]


def origin_table() -> dict[str, dict[str, str]]:
    """Event type -> {game id -> origin}, as the guide's table says (a dash: not in that game)."""
    block = GUIDE.split("<!-- origins:begin -->")[1].split("<!-- origins:end -->")[0]
    header, _, *rows = [
        [cell.strip().strip("`") for cell in line.strip("|").split("|")]
        for line in block.strip().splitlines()
    ]
    games = header[1:]
    return {
        name: {game: cell for game, cell in zip(games, cells, strict=True) if cell != "—"}
        for name, *cells in rows
    }


def test_the_table_of_origins_is_the_codes_for_every_event_of_every_game():
    assert origin_table() == origins()


def test_the_guide_names_every_key_of_the_header_and_of_an_event_line():
    named = set(re.findall(r"^\| `(\w+)` \|", GUIDE, flags=re.MULTILINE))
    assert HEADER_KEYS | EVENT_KEYS <= named


def test_every_hex_value_the_guide_quotes_is_one_of_its_examples():
    quoted = set(re.findall(r"\b[0-9a-f]{16,64}\b", GUIDE)) - {GENESIS}
    assert quoted and {value for value in quoted if value not in EXAMPLES} == set()


def transcripts() -> list[tuple[str, list[str]]]:
    """Each `$ python -m events.audit.verify FILE --key KEY` in the guide, with the lines it
    shows."""
    command = r"```\n\$ python -m events\.audit\.verify (\S+) --key \S+\n(.*?)```"
    found = re.findall(command, GUIDE, re.S)
    return [(path, said.splitlines()) for path, said in found]


def test_the_verifier_prints_what_the_guide_shows():
    key = (ROOT / "docs/audit/example-key.json").read_bytes()
    shown = transcripts()
    assert [path for path, _ in shown] == [
        "docs/audit/example-export.ndjson",
        "docs/audit/example-forged.ndjson",
        "docs/audit/example-fair.ndjson",
    ]
    for path, lines in shown:
        said: list[str] = []
        ok = verify((ROOT / path).read_text("utf-8"), said.append, key=key)
        assert [*said, "VERIFIED" if ok else "NOT VERIFIED"] == lines
