"""The head-signing key: created once, whole, by whichever process starts first."""

from __future__ import annotations

import base64
import json
import multiprocessing
import stat
import threading

import pytest

from events.audit.signing import load_or_create_signer, public_key_from, signature_is_valid


def _key_id(path: str) -> str:
    return load_or_create_signer(path).key_id


def test_a_missing_key_is_created_private_and_then_kept(tmp_path):
    path = tmp_path / "keys" / "audit-key.pem"
    first = load_or_create_signer(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_signer(path).key_id == first.key_id


def test_processes_starting_together_all_get_the_same_key(tmp_path):
    path = str(tmp_path / "audit-key.pem")
    pool = multiprocessing.get_context("fork").Pool(6)
    ids = pool.map(_key_id, [path] * 24)
    # close and join, not terminate (the `with` block's): terminate holds the task queue's
    # lock and SIGTERMs the workers, and a worker still waiting for that lock never exits
    # if this process handles SIGTERM (RQ's worker, run in-process by other tests, does).
    pool.close()
    pool.join()
    assert len(set(ids)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["audit-key.pem"]


def test_a_signature_verifies_only_with_the_signers_public_key_and_message(tmp_path):
    signer = load_or_create_signer(tmp_path / "a.pem")
    other = load_or_create_signer(tmp_path / "b.pem")
    signature = signer.sign("g", 3, "ab" * 32)
    described = signer.public_description()
    for form in (described["public_key_pem"], described["public_key"], json.dumps(described)):
        assert signature_is_valid(public_key_from(form), "g", 3, "ab" * 32, signature)
    assert not signature_is_valid(signer.public_key, "g", 4, "ab" * 32, signature)
    assert not signature_is_valid(other.public_key, "g", 3, "ab" * 32, signature)
    assert not signature_is_valid(signer.public_key, "g", 3, "ab" * 32, "not base64!")


def test_a_key_that_is_not_ed25519_is_refused():
    with pytest.raises(ValueError):
        public_key_from("bm90IGEga2V5")


def test_a_signature_has_one_spelling_only(tmp_path):
    """Base64 ignores the last character's spare bits: a variant spelling must not verify."""
    signer = load_or_create_signer(tmp_path / "a.pem")
    signature = signer.sign("g", 1, "cd" * 32)
    last = signature.rstrip("=")[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    twin = alphabet[alphabet.index(last) ^ 1]  # differs only in the lowest (spare) bit
    variant = signature.rstrip("=")[:-1] + twin + "=" * signature.count("=")
    assert base64.b64decode(variant) == base64.b64decode(signature)
    assert not signature_is_valid(signer.public_key, "g", 1, "cd" * 32, variant)


def test_threads_of_one_process_starting_together_all_get_the_same_key(tmp_path):
    """A worker's relay, sweeper, timers and jobs may all ask for the key on its first start."""
    path = tmp_path / "keys" / "audit-key.pem"
    start = threading.Barrier(8)
    ids, errors = [], []

    def load() -> None:
        start.wait()
        try:
            ids.append(load_or_create_signer(path).key_id)
        except Exception as error:  # noqa: BLE001 - the test reports any
            errors.append(error)

    threads = [threading.Thread(target=load) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(set(ids)) == 1 and len(ids) == 8
    assert [p.name for p in path.parent.iterdir()] == ["audit-key.pem"]  # no draft left
