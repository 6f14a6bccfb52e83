"""GET /games/{id}/export carries the game's place in the public log once its leaf is there:
the index, the inclusion proof, the tree size and the signed checkpoint it is relative to; and
`python -m events.audit.verify --checkpoint` holds it to a checkpoint obtained elsewhere."""

from __future__ import annotations

from events.audit.export_checks import examine
from events.audit.log_format import open_checkpoint
from events.audit.signing import public_key_from
from tests.api.test_audit_and_export import stored_game
from tests.events.exports import lines_of


def appended(client) -> None:
    """What the log's appender does on a worker: every finished game queued goes in."""
    client.application.extensions["cardroom"].public_log.append_pending()


def exported(client, game_id: str) -> bytes:
    return client.get(f"/games/{game_id}/export").get_data()


def test_an_export_has_no_log_until_its_game_is_in_the_log_then_its_place_in_it(client):
    game_id = stored_game(client.application, "trick_and_snipers", seed=11)
    before = lines_of(exported(client, game_id).decode())[0]
    if "log" not in before:  # a worker's appender may have been quicker
        appended(client)
    header = lines_of(exported(client, game_id).decode())[0]
    key = public_key_from(client.get("/audit-key").get_data())
    place = header["log"]
    checkpoint = open_checkpoint(place["checkpoint"].encode(), key)
    assert sorted(place) == ["checkpoint", "hashes", "index", "size"]
    assert place["size"] == checkpoint.size and 0 <= place["index"] < place["size"]
    proof = client.get(f"/log/proof/inclusion?game={game_id}&size={place['size']}").get_json()
    assert (proof["index"], proof["hashes"]) == (place["index"], place["hashes"])
    assert {k: v for k, v in header.items() if k != "log"}.keys() == before.keys() - {"log"}


def test_an_export_verifies_against_the_checkpoint_served_and_says_which_proof_an_older_needs(
    client,
):
    key = client.get("/audit-key").get_data()
    game_id = stored_game(client.application, "trick_and_snipers", seed=12)
    appended(client)
    older = client.get("/log/checkpoint").get_data()
    stored_game(client.application, "saint_poker", seed=13)
    appended(client)
    newer = client.get("/log/checkpoint").get_data()
    export = exported(client, game_id)

    report = examine(export, key=key, checkpoint=newer)
    assert report.verdict == "VERIFIED", [str(line) for line in report.lines]
    assert report.passed("log")

    size = open_checkpoint(older, public_key_from(key)).size
    stale = examine(export, key=key, checkpoint=older)
    said = next(str(line) for line in stale.lines if line.check == "log")
    assert stale.verdict == "NOT VERIFIED"
    assert f"GET /log/proof/inclusion?game={game_id}&size={size}" in said
    proof = client.get(f"/log/proof/inclusion?game={game_id}&size={size}").get_data()
    assert examine(export, key=key, checkpoint=older, proof=proof).verdict == "VERIFIED"
