"""`python -m tests.audit.make_vectors [DIR]`: writes the audit guide's test vectors and example
files (docs/audit/, or DIR), deterministically: tests/audit/test_vectors.py regenerates them and
requires the same bytes, so they cannot go stale. Every value is computed by the project's code
and cross-checked here against the spelled-out rule that docs/audit.md states."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from domain.kit.codec import canonical_json
from events.audit.signing import head_message
from tests.audit.deal_vectors import compact, deal_vectors
from tests.audit.example_game import (
    FAIR_GAME_ID,
    GAME_ID,
    SIGNER,
    TEST_KEY_SEED,
    example_export,
    fair_export,
    forged_export,
)
from tests.audit.export_schema import schema
from tests.audit.vector_parts import (
    canonical_examples,
    deal_vector,
    event_vector,
    legacy_vector,
    text_and_hex,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "audit"
KEY_FILE = "example-key.json"


def pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def files() -> dict[str, str]:
    """File name -> text, every file this script writes."""
    export, fair = example_export(), fair_export()
    forged, version = forged_export(export)
    return {
        "vectors.json": pretty(vectors(export, version)),
        "example-export.ndjson": export,
        "example-forged.ndjson": forged,
        "example-fair.ndjson": fair,
        KEY_FILE: pretty(SIGNER.public_description()),
        "export.schema.json": pretty(schema()),
        "deal-vectors.json": compact(deal_vectors(fair)) + "\n",
    }


def vectors(export: str, forged_version: int) -> dict[str, Any]:
    lines = [json.loads(line) for line in export.splitlines()]
    head, events = lines[0], lines[1:]
    public = next(e for e in events if e["type"] == "CardPlayed")
    private = next(e for e in events if e["type"] == "CardsPassed")
    return {
        "about": "Test vectors of docs/audit.md, written by tests/audit/make_vectors.py. Every"
        " `*_utf8` string is exactly the bytes hashed or signed (`*_hex` spells them in hex).",
        "test_key": test_key(),
        "canonical_json": canonical_examples(),
        "event_hashes": [
            event_vector(head, public, "a public event: visible_to null, nonce null"),
            event_vector(head, private, "a private event: visible_to not null, so a nonce"),
        ],
        "legacy_event_hash": legacy_vector(head, public),
        "deal_commitment": deal_vector(events),
        "head_signature": head_vector(head),
        "examples": examples(head, forged_version),
    }


def test_key() -> dict[str, Any]:
    description = SIGNER.public_description()
    return {
        "warning": "A TEST key: its private seed is published here, so it proves nothing."
        " Never trust a signature made with it; a server's key comes from GET /audit-key.",
        "private_key_seed_hex": TEST_KEY_SEED.hexdigest(),
        "key_id": description["key_id"],
        "public_key": description["public_key"],
        "public_key_pem": description["public_key_pem"],
    }


def head_vector(head: dict[str, Any]) -> dict[str, Any]:
    game_id, version, chain_head = head["game_id"], head["version"], head["chain_head"]
    spelled = {
        "chain_head": chain_head,
        "game_id": game_id,
        "purpose": "cardroom-chain-head",
        "version": version,
    }
    message = head_message(game_id, version, chain_head)
    assert message == canonical_json(spelled).encode("utf-8")
    return {
        "game_id": game_id,
        "version": version,
        "chain_head": chain_head,
        **text_and_hex("message", message),
        "key_id": SIGNER.key_id,
        "public_key": SIGNER.public_description()["public_key"],
        "public_key_pem": SIGNER.public_description()["public_key_pem"],
        "signature": head["head_signature"],
    }


def examples(head: dict[str, Any], forged_version: int) -> dict[str, Any]:
    command = "python -m events.audit.verify docs/audit/{} --key docs/audit/" + KEY_FILE
    return {
        "example-export.ndjson": {
            "game_id": str(GAME_ID),
            "version": head["version"],
            "chain_head": head["chain_head"],
            "command": command.format("example-export.ndjson"),
            "verdict": "VERIFIED",
        },
        "example-forged.ndjson": {
            "changed": f"the card of the CardPlayed at version {forged_version} (the card the"
            " next seat played), then every hash and the header's chain_head recomputed",
            "command": command.format("example-forged.ndjson"),
            "verdict": "NOT VERIFIED",
            "failing_checks": ["rules", "signature"],
            "first_bad_version": forged_version,
        },
        "example-fair.ndjson": {
            "game_id": str(FAIR_GAME_ID),
            "command": command.format("example-fair.ndjson"),
            "verdict": "VERIFIED",
            "deals_fair": True,
        },
    }


def write(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files().items():
        (directory / name).write_bytes(text.encode("utf-8"))


def main(argv: list[str]) -> None:
    write(Path(argv[0]) if argv else DOCS)


if __name__ == "__main__":
    main(sys.argv[1:])
