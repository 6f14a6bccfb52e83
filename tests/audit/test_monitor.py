"""`python -m events.audit.monitor URL --state DIR` against a scripted log server
(tests/audit/scripted_log.py): it holds when the log only grows and every leaf is its game's
verified head, and says plainly, with exit status 1 and never a traceback, when the key was
swapped, the log was rebuilt or truncated, a game was rewritten after it went into the log, or
the server answers nonsense. tests/audit/test_monitor_live.py runs it against the service."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.audit.export_log import LogProof
from events.audit.monitor import main
from events.audit.signing import HeadSigner
from tests.audit.scripted_log import ScriptedLog, b64, replies, serving
from tests.events.exports import SIGNER, export_of, lines_of, rechained, text_of

GAMES = [export_of("trick_and_snipers", seed) for seed in range(1, 8)]


@pytest.fixture()
def log() -> ScriptedLog:
    scripted = ScriptedLog()
    for export in GAMES[:3]:
        scripted.add(export)
    return scripted


@pytest.fixture()
def monitor(log, tmp_path, capsys):
    """Runs the monitor against the log, always with the same state; (status, stdout)."""
    with serving(log) as url:

        def run(*extra: str) -> tuple[int, str]:
            status = main([url, "--state", str(tmp_path / "state"), *extra])
            out, err = capsys.readouterr()
            assert "Traceback" not in out + err
            return status, out

        yield run


def rewritten(export: str) -> str:
    """The game with one event's time changed, re-chained and re-signed with the key: what an
    operator holding the key can do, and what verifies by itself."""
    lines = lines_of(export)
    lines[5]["recorded_at"] = "2026-01-01T00:00:00.999999Z"
    return rechained(lines, SIGNER)


def test_a_first_run_trusts_the_key_checks_every_leaf_and_remembers_the_checkpoint(
    monitor, tmp_path
):
    status, printed = monitor()
    assert status == 0, printed
    assert printed.splitlines() == [
        f"key: trusting {SIGNER.key_id}, the first key this monitor saw",
        printed.splitlines()[1],
        "consistency: nothing remembered yet, every leaf is new",
        "entries: leaves 0 to 2 and the remembered tree hash to its root",
        "games: each of the 3 new leaves is its game's verified head",
        f"OK: the log is consistent at 3 leaves; {tmp_path / 'state'} remembers it",
    ]
    assert printed.splitlines()[1].startswith("checkpoint: cardroom.test/log, 3 leaves, root ")
    assert (tmp_path / "state" / "checkpoint").read_bytes().startswith(b"cardroom.test/log\n3\n")


def test_a_later_run_checks_the_new_leaves_and_that_the_tree_extends_the_remembered_one(
    log, monitor
):
    assert monitor()[0] == 0
    log.add(GAMES[3])
    log.add(GAMES[4])
    status, printed = monitor()
    assert status == 0, printed
    assert "consistency: the tree of 5 leaves extends the remembered tree of 3" in printed
    assert "entries: leaves 3 to 4 and the remembered tree hash to its root" in printed
    assert "games: each of the 2 new leaves is its game's verified head" in printed
    assert log.requests.count("/games/" + log.games[0] + "/export") == 1  # not checked again


def test_a_run_with_nothing_new_holds(monitor):
    assert monitor()[0] == 0
    status, printed = monitor()
    assert status == 0
    assert "consistency: the same tree of 3 leaves as remembered" in printed
    assert "key: " + SIGNER.key_id + ", the key trusted since the first run" in printed


def test_a_game_rewritten_and_re_signed_after_it_went_into_the_log_is_caught_at_its_leaf(
    log, monitor
):
    assert monitor()[0] == 0
    log.add(GAMES[3])
    game = log.games[3]
    log.exports[game] = rewritten(GAMES[3]).encode()
    status, printed = monitor()
    assert status == 1
    assert (
        f"FAIL: 1 of 1 new leaves are not their games' heads:\nleaf 3 (game {game}): the log holds"
        in (printed)
    )
    assert "the game was rewritten after it went into the log" in printed
    status, again = monitor()  # nothing was remembered: the next run says it again
    assert status == 1 and "leaf 3" in again


def test_a_log_rebuilt_with_another_history_is_a_split_view_caught_by_consistency(
    log, monitor, tmp_path
):
    assert monitor()[0] == 0
    log.leaves = [log.leaves[1], log.leaves[0], log.leaves[2]]
    log.games = [log.games[1], log.games[0], log.games[2]]
    log.add(GAMES[3])
    status, printed = monitor()
    assert status == 1
    assert printed.splitlines()[-1].startswith(
        "FAIL: split view: the server's signed tree of 4 leaves does not extend the remembered"
        " tree of 3 (root "
    )
    evidence = list((tmp_path / "state").glob("conflicting-checkpoint-*"))
    assert [path.read_bytes() for path in evidence] == [log.note()]
    assert monitor()[0] == 1  # the remembered checkpoint is still the one it verified


def test_a_truncated_log_is_a_split_view(log, monitor):
    assert monitor()[0] == 0
    del log.leaves[2:], log.games[2:]
    status, printed = monitor()
    assert status == 1
    assert "split view: the server's signed tree of 2 leaves does not extend the remembered" in (
        printed
    )


def test_a_log_rebuilt_at_the_same_size_is_a_split_view(log, monitor):
    assert monitor()[0] == 0
    log.leaves[2], log.games[2] = log.leaves[1], log.games[1]
    status, printed = monitor()
    assert status == 1
    assert "split view: the server's signed tree of 3 leaves" in printed


def test_a_swapped_audit_key_is_caught_though_it_signs_everything(log, monitor):
    assert monitor()[0] == 0
    log.signer = HeadSigner(Ed25519PrivateKey.generate())
    status, printed = monitor()
    assert status == 1
    assert printed.splitlines()[-1] == (
        f"FAIL: the server's audit key is now {log.signer.key_id}, not the key {SIGNER.key_id}"
        f" trusted first ({printed.split('(')[1].split(')')[0]}): a swapped key can sign any"
        " history"
    )


def test_a_checkpoint_signed_by_another_key_is_caught(log, monitor):
    stranger = HeadSigner(Ed25519PrivateKey.generate())
    signed = ScriptedLog(stranger, leaves=log.leaves).note()
    log.replaced["/log/checkpoint"] = replies(200, signed, kind="text/plain")
    status, printed = monitor()
    assert status == 1
    assert "FAIL: the checkpoint served is not signed by the audit key" in printed


def test_entries_that_do_not_hash_to_the_signed_root_are_caught(log, monitor):
    assert monitor()[0] == 0
    log.add(GAMES[3])
    true_note = log.note()
    log.leaves[3] = log.leaves[0]  # the entries lie; the checkpoint is the true tree's
    log.replaced["/log/checkpoint"] = replies(200, true_note, kind="text/plain")
    log.replaced["/log/proof/consistency"] = replies(
        200, json.dumps({"hashes": [b64(h) for h in _true_proof(GAMES[:4], 3, 4)]}).encode()
    )
    status, printed = monitor()
    assert status == 1
    assert (
        "FAIL: the entries of leaf 3 the server sent, appended to the remembered tree, do not"
        in (printed)
    )


def _true_proof(exports: list[str], first: int, second: int) -> list[bytes]:
    honest = ScriptedLog()
    for export in exports:
        honest.add(export)
    return honest.tree().consistency(first, second)


def test_a_busy_server_is_waited_out(log, monitor):
    busy = iter([replies(429, b'{"detail": "slow down"}')] * 2)

    def answer(query):
        script = next(busy, None)
        return script(query) if script else log.honest("/log/checkpoint", query)

    log.replaced["/log/checkpoint"] = answer
    assert monitor()[0] == 0


NONSENSE = {
    "not JSON": replies(200, b"<html>hello</html>", kind="text/html"),
    "a JSON array": replies(200, b"[1, 2]"),
    "an error": replies(500, b'{"detail": "boom"}', kind="application/problem+json"),
    "not found": replies(404, b"nope", kind="text/plain"),
    "a cut connection": lambda _: (-1, "", b""),
    "an empty body": replies(200, b""),
}
BAD_ENTRIES = {
    "no items": {"items": []},
    "items not a list": {"items": "many"},
    "a leaf not base64": {"items": [{"index": 0, "game_id": "g", "leaf": "%%%"}]},
    "a leaf not a string": {"items": [{"index": 0, "game_id": "g", "leaf": 7}]},
    "a wrong index": {"items": [{"index": 5, "game_id": "g", "leaf": "AA=="}]},
    "an item not an object": {"items": [None]},
    "a game id not a string": {"items": [{"index": 0, "game_id": [], "leaf": "AA=="}]},
}
BAD_PROOFS = {
    "hashes not base64": {"hashes": ["***"]},
    "a short hash": {"hashes": [base64.b64encode(bytes(31)).decode()]},
    "hashes not a list": {"hashes": {"a": 1}},
    "no hashes": {},
    "too many hashes": {"hashes": [base64.b64encode(bytes(32)).decode()] * 100},
}


@pytest.mark.parametrize("path", ["/audit-key", "/log/checkpoint", "/log/entries"])
@pytest.mark.parametrize("answer", sorted(NONSENSE))
def test_a_broken_answer_on_any_route_is_a_plain_failure(log, monitor, path, answer):
    log.replaced[path] = NONSENSE[answer]
    status, printed = monitor()
    assert status == 1
    assert printed.splitlines()[-1].startswith("FAIL: ")


@pytest.mark.parametrize("answer", sorted(BAD_ENTRIES))
def test_entries_that_are_not_entries_are_a_plain_failure(log, monitor, answer):
    log.replaced["/log/entries"] = replies(200, json.dumps(BAD_ENTRIES[answer]).encode())
    status, printed = monitor()
    assert status == 1
    assert printed.splitlines()[-1].startswith("FAIL: ")


@pytest.mark.parametrize("answer", sorted(BAD_PROOFS))
def test_a_consistency_proof_that_is_not_one_is_a_plain_failure(log, monitor, answer):
    assert monitor()[0] == 0
    log.add(GAMES[3])
    log.replaced["/log/proof/consistency"] = replies(200, json.dumps(BAD_PROOFS[answer]).encode())
    status, printed = monitor()
    assert status == 1
    assert printed.splitlines()[-1].startswith("FAIL: ")


@pytest.mark.parametrize("answer", sorted(NONSENSE))
def test_an_export_that_is_not_one_is_a_plain_failure(log, monitor, answer):
    log.replaced["/games/" + log.games[1] + "/export"] = NONSENSE[answer]
    status, printed = monitor()
    assert status == 1
    assert [line for line in printed.splitlines() if line.startswith("FAIL: ")]
    assert log.games[1] in printed


def test_a_server_that_does_not_answer_in_time_is_a_plain_failure(log, monitor):
    log.replaced["/log/checkpoint"] = replies(200, b"late", delay=2.0)
    status, printed = monitor("--timeout", "0.5")
    assert status == 1
    assert printed.splitlines()[-1] == "FAIL: GET /log/checkpoint failed: timed out"


def test_an_unreachable_server_is_a_plain_failure(tmp_path, capsys):
    status = main(["http://127.0.0.1:9", "--state", str(tmp_path / "state")])
    out, err = capsys.readouterr()
    assert status == 1
    assert out.startswith("FAIL: GET /audit-key failed: ") and "Traceback" not in out + err


def test_a_leaf_that_is_not_a_games_canonical_leaf_is_caught(log, monitor):
    log.leaves[1] = text_of([json.loads(log.leaves[1])]).encode()  # a newline after it
    status, printed = monitor()
    assert status == 1
    assert f"leaf 1 (game {log.games[1]}) is not a game's canonical leaf" in printed


def with_its_place(log: ScriptedLog, export: str, index: int) -> bytes:
    """The export as the service gives it once in the log: with its leaf's proof."""
    size = len(log.leaves)
    proof = LogProof(index, size, tuple(log.tree().inclusion(index, size)), log.note(size))
    lines = lines_of(export)
    return text_of([{**lines[0], "log": proof.to_json()}, *lines[1:]]).encode()


def test_a_rewritten_game_whose_export_carries_the_logs_proof_is_caught_by_its_head(log, monitor):
    assert monitor()[0] == 0
    log.add(GAMES[3])
    log.exports[log.games[3]] = with_its_place(log, rewritten(GAMES[3]), 3)
    status, printed = monitor()
    assert status == 1
    assert "leaf 3 (game " in printed and "the game was rewritten after it went into" in printed


def test_an_export_whose_own_proof_does_not_hold_is_caught(log, monitor):
    log.exports[log.games[2]] = with_its_place(log, GAMES[2], 1)  # the proof of another leaf
    status, printed = monitor()
    assert status == 1
    assert f"leaf 2 (game {log.games[2]}): its export's own place in the log does not hold" in (
        printed
    )


def test_exports_that_carry_their_place_in_the_log_hold(log, monitor):
    for index, game in enumerate(log.games):
        log.exports[game] = with_its_place(log, log.exports[game].decode(), index)
    assert monitor()[0] == 0


def test_many_new_leaves_are_checked_with_progress_on_stderr(tmp_path, capsys):
    many = ScriptedLog(page=5)
    for seed in range(20, 32):
        many.add(export_of("trick_and_snipers", seed))
    with serving(many) as url:
        status = main([url, "--state", str(tmp_path / "state")])
    out, err = capsys.readouterr()
    assert status == 0, out
    assert "games: each of the 12 new leaves is its game's verified head" in out
    assert err.startswith("checking 12 new leaves against their games' exports")


def test_a_state_directory_that_cannot_be_read_is_a_plain_failure(monitor, tmp_path):
    assert monitor()[0] == 0
    (tmp_path / "state" / "tree.json").write_text("{not json")
    status, printed = monitor()
    assert status == 1
    assert printed.startswith(f"FAIL: the state in {tmp_path / 'state'} cannot be read: ")


def test_a_remembered_tree_that_is_not_the_remembered_checkpoints_is_refused(monitor, tmp_path):
    assert monitor()[0] == 0
    tree = tmp_path / "state" / "tree.json"
    remembered = json.loads(tree.read_text())
    remembered["hashes"][0] = b64(bytes(32))
    tree.write_text(json.dumps(remembered))
    status, printed = monitor()
    assert status == 1
    assert (
        printed.splitlines()[-1]
        == f"FAIL: {tmp_path / 'state'} does not hold together: start afresh"
    )


def test_a_game_rewritten_after_the_monitor_checked_it_is_caught_by_a_recheck(log, monitor):
    assert monitor()[0] == 0
    game = log.games[1]
    log.exports[game] = rewritten(GAMES[1]).encode()
    assert monitor()[0] == 0  # its leaf is not new: a plain run does not fetch it again
    status, printed = monitor("--recheck")
    assert status == 1
    assert "entries: leaves 0 to 2 still hash to the remembered root" in printed
    assert f"FAIL: 1 of 3 leaves are not their games' heads:\nleaf 1 (game {game})" in printed


def test_a_recheck_of_a_sound_log_holds(log, monitor):
    assert monitor()[0] == 0
    log.add(GAMES[3])
    status, printed = monitor("--recheck")
    assert status == 0, printed
    assert "games: each of the 4 leaves is its game's verified head" in printed


def test_a_recheck_catches_remembered_entries_served_otherwise(log, monitor):
    assert monitor()[0] == 0
    honest = log.honest

    def swapped(query):
        status, kind, body = honest("/log/entries", query)
        items = json.loads(body)["items"]
        for item in items:
            item["leaf"] = b64(log.leaves[{0: 1, 1: 0}.get(item["index"], item["index"])])
        return status, kind, json.dumps({"items": items}).encode()

    log.replaced["/log/entries"] = swapped
    status, printed = monitor("--recheck")
    assert status == 1
    assert printed.splitlines()[-1] == (
        "FAIL: the entries of leaves 0 to 2 the server sends now do not hash to the remembered"
        " root: the log was rewritten"
    )
