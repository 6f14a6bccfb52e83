"""Provably fair deals, audited offline for every game type: a fair game verifies and says so; a
game whose seeds came in the body that made the commitment verifies and is not fair; a deal
swapped for another permutation, a changed client seed or a revealed server seed that is not
the committed one fails, even when the server itself re-commits, rehashes and signs again. The
verifier written from docs/audit.md alone reaches the same verdict on the seeds every time."""

from __future__ import annotations

import json

import pytest

from domain.games import GAME_TYPES
from events.audit.export_checks import examine_text
from events.audit.verdicts import CONSISTENT, NOT_VERIFIED, VERIFIED, Report
from tests.audit import independent_verifier
from tests.events.exports import SIGNER, lines_of, rechained, seeded_export_of
from tests.events.seed_forgeries import client_seed_changed, server_seed_changed, swapped_deal

KEY = json.dumps(SIGNER.public_description())
GAMES = sorted(GAME_TYPES)


def checked(text: str, key: str | None = KEY) -> Report:
    report = examine_text(text, key=key)
    outsider = independent_verifier.verify(text.encode(), None if key is None else key.encode())
    ours = next(line for line in report.lines if line.check == "seeds")
    assert outsider.seeds_ok == (ours.status == "ok"), (ours, outsider)
    return report


def status(report: Report, check: str) -> str:
    return next(f"{line.status} {line.detail}" for line in report.lines if line.check == check)


def resigned(lines: list[dict]) -> str:
    """Rehashed and signed with the server's own key: only the seeds can tell."""
    return rechained(lines, signer=SIGNER)


@pytest.mark.parametrize("game_type_id", GAMES)
def test_a_fair_game_verifies_and_is_fair(game_type_id):
    text = seeded_export_of(game_type_id, in_advance=True, joiner=True)
    report = checked(text)
    assert report.verdict == VERIFIED and report.exit_status == 0, [str(x) for x in report.lines]
    assert report.deals_fair is True
    assert status(report, "seeds").startswith("ok the server seed is the committed one")
    assert status(report, "fair") == (
        "info yes: seat(s) 0, 1 gave their seeds after the server committed to its own"
    )
    assert independent_verifier.verify(text.encode(), KEY.encode()).deals_fair is True


@pytest.mark.parametrize("game_type_id", GAMES)
def test_a_game_whose_seeds_came_in_the_create_body_with_the_commitment_is_not_fair(game_type_id):
    # Given a table created without a commitment given out before: the server drew its seed as
    # it read the body that carried seat 0's seed
    text = seeded_export_of(game_type_id, in_advance=False, joiner=False)
    # When it is audited
    report = checked(text)
    # Then every check passes, and the deals are not called fair
    assert report.verdict == VERIFIED and report.deals_fair is False
    assert status(report, "fair").startswith("info no: the server committed to its seed only")
    assert independent_verifier.verify(text.encode(), KEY.encode()).deals_fair is False


@pytest.mark.parametrize("game_type_id", GAMES)
def test_a_swapped_deal_fails_at_its_version_even_when_recommitted_and_rehashed(game_type_id):
    lines, version = swapped_deal(lines_of(seeded_export_of(game_type_id)))
    report = checked(resigned(lines))
    assert report.verdict == NOT_VERIFIED and report.exit_status == 1
    assert status(report, "signature").startswith("ok")  # the server signed the forgery
    assert status(report, "deals").startswith("ok")  # and committed to the swapped deck
    assert status(report, "rules").startswith(f"FAIL v{version}: DealCommitted commitment")
    assert status(report, "seeds").startswith(f"FAIL v{version}: ")
    outsider = independent_verifier.verify(resigned(lines).encode(), KEY.encode())
    assert outsider.bad_seed_version == version and not outsider.verified


@pytest.mark.parametrize("game_type_id", GAMES)
def test_a_changed_client_seed_fails(game_type_id):
    lines, version = client_seed_changed(lines_of(seeded_export_of(game_type_id)))
    report = checked(resigned(lines))
    assert report.verdict == NOT_VERIFIED and report.deals_fair is False
    assert status(report, "rules").startswith(f"FAIL v{version}: DealCommitted")
    assert status(report, "seeds").startswith(f"FAIL v{version}: ")


@pytest.mark.parametrize("game_type_id", GAMES)
def test_a_revealed_server_seed_that_does_not_match_its_commitment_fails(game_type_id):
    lines, version = server_seed_changed(lines_of(seeded_export_of(game_type_id)))
    report = checked(resigned(lines))
    assert report.verdict == NOT_VERIFIED and report.deals_fair is False
    assert status(report, "rules").startswith("FAIL v1: TableCreated seeding.commitment")
    assert status(report, "seeds") == (
        f"FAIL v{version}: the revealed server seed is not the one committed to"
    )


def test_a_fair_game_without_a_key_or_a_pinned_head_is_consistent_but_not_anchored():
    report = checked(seeded_export_of("trick_and_snipers"), key=None)
    assert report.verdict == CONSISTENT and report.exit_status == 3
    assert report.deals_fair is True  # what the file says, though nothing anchors it


def test_a_seeded_game_that_was_never_fair_says_why():
    # Given a table where nobody's seed came after a commitment made in advance
    lines = lines_of(seeded_export_of("saint_poker", in_advance=True, joiner=False))
    lines[1]["data"]["seeding"]["client_seeds"][0]["by"] = "server"  # as if the server drew it
    # When it is audited (the server re-signing what it changed)
    report = checked(resigned(lines))
    # Then it verifies, and no seat's seed counts
    assert report.verdict == VERIFIED and report.deals_fair is False
    assert status(report, "fair") == (
        "info no: no seat's player gave a seed after the server's commitment"
    )
