"""An export verifier written only from docs/audit.md, as an outsider would write one: it imports
nothing of the project (only the standard library, and `cryptography` for Ed25519), so that its
agreement with `python -m events.audit.verify` tests the guide as much as the code. It checks what
needs no game rules: canonical lines, the hash chain, the nonces, the head, its signature, the
deals, the seeds every deal is derived from (section 7), and whether the deals are fair.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

GENESIS = "0" * 64
FORMATS = {"cardroom-export/2": 2, "cardroom-export/1": 1}
HEADER = {"kind", "format", "complete", "game_id", "type", "status", "version", "seats"}
HEADER |= {"options", "result", "chain_format", "chain_head", "head_signature", "key_id"}
EVENT = {"kind", "version", "type", "seat", "visible_to", "recorded_at", "data", "nonce"}
EVENT |= {"prev_hash", "hash"}
LEGACY_HEADER = HEADER - {"chain_format", "head_signature", "key_id"}
LEGACY_EVENT = EVENT - {"nonce"}
NONCE = re.compile(r"[0-9a-f]{32}")
SPELLING = {
    2: re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"),
    # A cardroom-export/1 file: either spelling (5.2); the hash takes +00:00 whichever is used.
    1: re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|\+00:00)"),
}
ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r"}
ESCAPES["\t"] = "\\t"


class NotCanonical(ValueError):
    pass


def canonical(value: Any) -> str:
    """RFC 8785 for the values an export holds (no floats: integers within +-(2**53 - 1))."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        if abs(value) > 2**53 - 1:
            raise NotCanonical(f"{value} is beyond the integers JSON numbers hold exactly")
        return str(value)
    if isinstance(value, str):
        escaped = (ESCAPES.get(c, c if c >= " " else f"\\u{ord(c):04x}") for c in value)
        return '"' + "".join(escaped) + '"'
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: key.encode("utf-16-be"))  # by UTF-16 code units
        return "{" + ",".join(canonical(k) + ":" + canonical(value[k]) for k in keys) + "}"
    raise NotCanonical(f"{value!r} is not an export's value")


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def event_hash(chain_format: int, game_id: str, prev: str, record: Mapping[str, Any]) -> str:
    fields = ("version", "type", "seat", "visible_to", "data")
    if chain_format == 1:
        legacy = {key: record[key] for key in fields} | {"game_id": game_id}
        at = record["recorded_at"]  # spelled +00:00 in format 1: from a /2 file, Z replaced
        legacy["recorded_at"] = at[:-1] + "+00:00" if at.endswith("Z") else at
        return sha256_hex(prev + canonical(legacy))
    body = {key: record[key] for key in (*fields, "recorded_at", "nonce")}
    return sha256_hex(canonical(body | {"chain": 2, "game_id": game_id, "prev_hash": prev}))


@dataclass
class Verdict:
    format_ok: bool
    problem: str | None = None
    chain_ok: bool | None = None  # None: not checked (the format failed)
    first_bad_version: int | None = None  # None with chain_ok False: the header's head is wrong
    version_ok: bool | None = None  # the header's version is the number of events
    pins_ok: bool | None = None  # None: no head pinned
    signature_ok: bool | None = None  # None: no key given
    key_id_ok: bool | None = None
    deals_ok: bool | None = None
    bad_deal_versions: list[int] = field(default_factory=list)
    seeds_ok: bool | None = None  # None: a table from before seeds
    bad_seed_version: int | None = None
    deals_fair: bool | None = None  # None: fixed test decks

    @property
    def verified(self) -> bool:
        anchored = (self.signature_ok, self.key_id_ok, self.pins_ok)
        checks = (self.format_ok, self.chain_ok, self.version_ok, self.deals_ok)
        return all(checks) and self.seeds_ok is not False and False not in anchored


def parse_line(raw: str) -> dict[str, Any]:
    def no_floats(text: str) -> Any:
        raise NotCanonical(f"{text}: an export holds integers only")

    value = json.loads(raw, parse_float=no_floats, parse_constant=no_floats)
    if not isinstance(value, dict) or canonical(value) != raw:
        raise NotCanonical("not a canonical JSON object")
    return value


def read(raw: bytes) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The header, the events and the chain format; raises ValueError for a malformed file."""
    text = raw.decode("utf-8")  # strict: a file that is not UTF-8 is refused
    if not text.endswith("\n"):
        raise NotCanonical("the last line does not end with a newline")
    header, *events = [parse_line(line) for line in text[:-1].split("\n")]
    legacy = header.get("format") == "cardroom-export/1"
    if header.get("kind") != "header" or header.get("format") not in FORMATS:
        raise NotCanonical("line 1 is not an export header")
    keys = set(header) - ({"log"} if not legacy else set())  # in the public log: not checked here
    if header.get("complete") is not True or keys != (LEGACY_HEADER if legacy else HEADER):
        raise NotCanonical("not a complete export's header")
    if any(set(e) != (LEGACY_EVENT if legacy else EVENT) or e["kind"] != "event" for e in events):
        raise NotCanonical("a line is not an event line")
    if legacy:
        header |= {"chain_format": 1, "head_signature": None, "key_id": None}
        events = [event | {"nonce": None} for event in events]
    if header["chain_format"] not in (1, 2):
        raise NotCanonical("the chain format is not 1 or 2")
    return header, events, 1 if legacy else 2


def first_bad(header: dict[str, Any], events: list[dict[str, Any]], spelling: int) -> int | None:
    """The first version whose number, link, nonce, time spelling or hash is wrong."""
    prev, chain_format = GENESIS, header["chain_format"]
    for expected, record in enumerate(events, start=1):
        nonce, private = record["nonce"], record["visible_to"] is not None
        nonce_ok = (
            isinstance(nonce, str) and NONCE.fullmatch(nonce) is not None
            if private and chain_format == 2
            else nonce is None
        )
        if not (
            type(record["version"]) is int
            and record["version"] == expected
            and record["prev_hash"] == prev
            and nonce_ok
            and isinstance(record["recorded_at"], str)
            and SPELLING[spelling].fullmatch(record["recorded_at"])
            and event_hash(chain_format, header["game_id"], prev, record) == record["hash"]
        ):
            return expected
        prev = record["hash"]
    return None


def public_key(text: bytes) -> Ed25519PublicKey:
    """PEM, the JSON of GET /audit-key, or the base64 of the key's 32 raw bytes."""
    stripped = text.strip()
    if stripped.startswith(b"-----BEGIN"):
        key = load_pem_public_key(stripped)
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("not an Ed25519 key")
        return key
    if stripped.startswith(b"{"):
        stripped = json.loads(stripped)["public_key"].encode("ascii")
    return Ed25519PublicKey.from_public_bytes(base64.b64decode(stripped, validate=True))


def signed(header: dict[str, Any], key: Ed25519PublicKey) -> bool:
    message = {"purpose": "cardroom-chain-head", "chain_head": header["chain_head"]}
    message |= {"game_id": header["game_id"], "version": header["version"]}
    try:
        signature = base64.b64decode(header["head_signature"], validate=True)
        if base64.b64encode(signature).decode("ascii") != header["head_signature"]:
            return False  # one spelling: the unused bits of the last character are zero
        key.verify(signature, canonical(message).encode("utf-8"))
    except (InvalidSignature, TypeError, ValueError):
        return False
    return header["chain_head"] != GENESIS


def deal_matches(committed: dict[str, Any], sealed: dict[str, Any]) -> bool:
    """sha256(salt text, then the canonical JSON of the deck as {"rank", "suit"} objects)."""
    try:
        promised, shown = committed["data"], sealed["data"]
        deck = [{"rank": card["rank"], "suit": card["suit"]} for card in shown["deck"]]
        digest = sha256_hex(shown["salt"] + canonical(deck))
        return promised.get("round") == shown.get("round") and digest == promised["commitment"]
    except (AttributeError, KeyError, TypeError, ValueError):
        return False


def bad_deals(events: list[dict[str, Any]]) -> tuple[int, list[int]]:
    """How many deals were paired (k-th commitment with k-th sealed deck), and the versions
    of the commitments (or unpaired events) that fail."""
    committed = [e for e in events if e["type"] == "DealCommitted"]
    sealed = [e for e in events if e["type"] == "DeckSealed"]
    bad = [c["version"] for c, s in zip(committed, sealed, strict=False) if not deal_matches(c, s)]
    bad += [e["version"] for e in committed[len(sealed) :] + sealed[len(committed) :]]
    return min(len(committed), len(sealed)), sorted(bad)


class Stream:
    """7.2: HMAC-SHA256 of the context and a 4-byte big-endian counter, block after block."""

    def __init__(self, key: bytes, context: bytes) -> None:
        self.key, self.context, self.counter, self.buffer = key, context, 0, b""

    def take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            message = self.context + self.counter.to_bytes(4, "big")
            self.buffer += hmac.new(self.key, message, hashlib.sha256).digest()
            self.counter += 1
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def draw(self, n: int) -> int:
        """7.3: a word in the last, incomplete group of n values is thrown away."""
        while True:
            word = int.from_bytes(self.take(4), "big")
            if word < 2**32 - 2**32 % n:
                return word % n


def deal_context(client_seeds: list, game_id: str, round_number: int) -> bytes:
    fields = {"purpose": "cardroom-deal", "game_id": game_id, "round": round_number}
    return canonical(fields | {"client_seeds": client_seeds}).encode("utf-8")


def derive(server_seed: str, client_seeds: list, game_id: str, round_number: int, cards: list):
    """7.4: (deck, first leader, salt) of a deal of these cards, {"rank", "suit"} objects."""
    stream = Stream(bytes.fromhex(server_seed), deal_context(client_seeds, game_id, round_number))
    deck = sorted(cards, key=lambda card: (card["suit"], card["rank"]))
    for i in range(len(deck) - 1, 0, -1):
        j = stream.draw(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    leader = stream.draw(len(client_seeds))
    return deck, leader, stream.take(16).hex()


def check_seeds(header: dict[str, Any], events: list[dict[str, Any]], verdict: Verdict) -> None:
    """7.5 and 7.6: the revealed seed against its commitment, each deal against the derived
    one, then whether the deals are fair."""
    seeding = events[0]["data"].get("seeding") if events else None
    fixed = any(e["type"] == "FixedDecksChosen" for e in events)
    if seeding is None:
        verdict.deals_fair = None if fixed else False
        return
    bad, fair = seed_problem(header["game_id"], events, seeding)
    verdict.seeds_ok, verdict.bad_seed_version = bad is None, bad
    all_ok = bad is None and verdict.deals_ok is not False
    verdict.deals_fair = None if fixed else bool(all_ok and fair)


def is_entry(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and entry.get("by") in ("player", "server")
        and (isinstance(entry.get("seed"), str))
    )


def seed_problem(game_id: str, events: list, seeding: Any) -> tuple[int | None, bool]:
    """(the version of the first problem or None, whether a player's seed came after the
    commitment made before the table)."""
    if not (
        isinstance(seeding, dict)
        and isinstance(seeding.get("commitment"), str)
        and type(seeding.get("committed_in_advance")) is bool
        and isinstance(seeding.get("client_seeds"), list)
        and all(entry is None or is_entry(entry) for entry in seeding["client_seeds"])
    ):
        return 1, False
    sealed = next((e for e in events[1:3] if e["type"] == "ServerSeedSealed"), None)
    if sealed is None:
        return 2, False
    seed = sealed["data"].get("seed") if isinstance(sealed["data"], dict) else None
    if not isinstance(seed, str) or not re.fullmatch(r"[0-9a-f]{64}", seed):
        return sealed["version"], False
    if sha256_hex_bytes(seed) != seeding["commitment"]:
        return sealed["version"], False
    in_advance = seeding["committed_in_advance"]
    entries = seeding["client_seeds"]
    seeds = [None if entry is None else entry["seed"] for entry in entries]
    after = [in_advance and entry is not None and entry["by"] == "player" for entry in entries]
    decks: list = []
    deals = 0
    for i, event in enumerate(events):
        data = event["data"] if isinstance(event["data"], dict) else {}
        seat = data.get("seat")
        seat_ok = type(seat) is int and 0 <= seat < len(seeds)
        if event["type"] == "FixedDecksChosen":
            decks = data["decks"] if isinstance(data.get("decks"), list) else []
        elif event["type"] == "SeatJoined":
            if not seat_ok or not is_entry(data.get("client_seed")):
                return event["version"], False
            entry = data["client_seed"]
            seeds[seat], after[seat] = entry["seed"], entry["by"] == "player"
        elif event["type"] == "SeatLeft" and deals == 0:
            if not seat_ok:
                return event["version"], False
            seeds[seat], after[seat] = None, False
        elif event["type"] == "DealCommitted":
            deals += 1
            if not deal_is_derived(game_id, events, i, deals, seed, seeds, decks):
                return event["version"], False
    return (None, in_advance and any(after)) if deals else (len(events), False)


def deal_is_derived(
    game_id: str, events: list, i: int, number: int, seed: str, seeds: list, decks: list
) -> bool:
    """7.5: the deal starting at events[i] is the derived one (a fixed deck's, with test decks);
    a deal that cannot be read is not."""
    data = events[i]["data"]
    sealed = next((e for e in events[i + 1 :] if e["type"] == "DeckSealed"), None)
    if not isinstance(data, dict) or data.get("round") != number or sealed is None:
        return False
    shown = sealed["data"].get("deck") if isinstance(sealed["data"], dict) else None
    try:
        deck, leader, salt = derive(seed, seeds, game_id, number, list(shown))
    except (AttributeError, KeyError, TypeError, ValueError):
        return False
    options = events[0]["data"].get("options")
    option = options.get("first_leader") if isinstance(options, dict) else None
    wanted = decks[number - 1] if number <= len(decks) else deck
    leader_ok = data.get("first_leader") in (None, leader) or option is not None
    return (
        canonical_or_none(shown) == canonical_or_none(wanted)
        and sealed["data"].get("salt") == salt
        and leader_ok
    )


def canonical_or_none(value: Any) -> str | None:
    try:
        return canonical(value)
    except NotCanonical:
        return None


def sha256_hex_bytes(hex_text: str) -> str:
    return hashlib.sha256(bytes.fromhex(hex_text)).hexdigest()


def verify(raw: bytes, key: bytes | None = None, pins: Mapping[int, str] | None = None) -> Verdict:
    """`key`: the server's public key obtained independently; `pins`: heads obtained earlier,
    by version (a head of /audit during the game, or the final one)."""
    try:
        header, events, spelling = read(raw)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        return Verdict(False, str(error))
    bad = first_bad(header, events, spelling)
    head = events[-1]["hash"] if events else GENESIS
    verdict = Verdict(True, chain_ok=bad is None and head == header["chain_head"])
    verdict.first_bad_version = bad
    verdict.version_ok = type(header["version"]) is int and header["version"] == len(events)
    if pins:
        hashes = [event["hash"] for event in events]  # dense versions: the chain held
        verdict.pins_ok = bool(verdict.chain_ok) and all(
            0 < version <= len(hashes) and hashes[version - 1] == pinned.lower()
            for version, pinned in pins.items()
        )
    if key is not None:
        try:
            given = public_key(key)
        except (KeyError, TypeError, ValueError):  # not a key in any of the three forms
            verdict.signature_ok = verdict.key_id_ok = False
        else:
            verdict.signature_ok = signed(header, given)
            verdict.key_id_ok = (
                header["key_id"] == hashlib.sha256(given.public_bytes_raw()).hexdigest()[:16]
            )
    paired, verdict.bad_deal_versions = bad_deals(events)
    verdict.deals_ok = paired > 0 and not verdict.bad_deal_versions
    check_seeds(header, events, verdict)
    return verdict
