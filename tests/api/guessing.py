"""The strongest attacker on what a game publishes: it tries to CONFIRM hidden facts offline.

A viewer (a seat, or a spectator) holds everything the API showed it: events with some data
redacted, views, audits (a chain head and its signature at a known version), exports, headers.
Given the best possible guess of every redacted event -- its true data and true `visible_to`,
read from the database by the test -- the attacker recomputes hashes the way events/audit/chain.py
does, with everything except what it cannot know: the nonces (it tries none, or the true one
where it was shown it) and the deal salts (it tries every string it was shown). A hash that
covers a redacted event and equals something published, or carries a valid head signature, is
a confirmed secret. With nonces and salts kept secret nothing may ever be confirmed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.kit.codec import canonical_json
from events.audit.chain import GENESIS, event_hash, timestamp
from events.audit.signing import signature_is_valid

# How a hash over a guessed event could be spelled without the nonce: the current format with
# `nonce` null (a store that forgot it) and the old format, which had none.
RULES = (("format 2, nonce null", 2), ("format 1", 1))
HEXISH = re.compile(r"[0-9a-fA-F]{32,}")
BASE64ISH = re.compile(r"[A-Za-z0-9+/_-]{40,}={0,2}")


@dataclass
class Published:
    """Everything one viewer has been shown so far; an attacker forgets nothing."""

    values: set[str] = field(default_factory=set)
    heads: dict[int, str] = field(default_factory=dict)  # version -> the audit's chain head
    signatures: dict[int, str] = field(default_factory=dict)  # version -> its signature

    def take(self, value: Any) -> None:
        """Every string, number and key of a JSON value, and hex/base64 found inside strings."""
        if isinstance(value, dict):
            for key, item in value.items():
                self._text(str(key))
                self.take(item)
        elif isinstance(value, list):
            for item in value:
                self.take(item)
        elif isinstance(value, str):
            self._text(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            self.values.add(str(value))

    def take_audit(self, report: dict) -> None:
        self.take(report)
        if report.get("chain_head"):
            self.heads[report["version"]] = report["chain_head"]
            if report.get("head_signature"):
                self.signatures[report["version"]] = report["head_signature"]

    def _text(self, text: str) -> None:
        self.values.update((text, text.lower(), text.strip('"')))
        for token in HEXISH.findall(text):  # a hash embedded in a sentence or a header
            self.values.add(token.lower())
        for token in BASE64ISH.findall(text):  # a digest in base64 rather than hex
            for decode in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    self.values.add(decode(token + "=" * (-len(token) % 4)).hex())
                except (binascii.Error, ValueError):
                    pass


def truth(pool, game_id: str) -> list[dict]:
    """The oracle: the stored events as the chain covers them, with their nonces and hashes."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT version, type, seat, visible_to, recorded_at, data, nonce, prev_hash, hash"
            " FROM events WHERE game_id = %s ORDER BY version",
            (game_id,),
        ).fetchall()
    return [{**row, "recorded_at": timestamp(row["recorded_at"])} for row in rows]


@dataclass(frozen=True)
class Guess:
    """One event as the attacker rebuilds it: the fields it was shown, the true rest."""

    record: dict[str, Any]  # events/audit/chain.py's record, nonce None
    hidden: bool  # the viewer was shown something else than the true data
    nonce: str | None  # the true nonce: tried only where the viewer was shown it (any other
    # string it was shown would miss, as surely as a wrong guess of the data)


def guesses(shown: Sequence[Mapping], true: Sequence[Mapping]) -> list[Guess]:
    """The best guess of every event the viewer was shown (`true` is read up to the same
    version); shown fields are the viewer's own, so a server that shows them wrong fails the
    sanity check of the test rather than hiding the attack."""
    made = []
    for seen, real in zip(shown, true, strict=False):
        record = {
            "version": seen["version"],
            "type": seen["type"],
            "seat": seen["seat"],
            "visible_to": real["visible_to"],
            "recorded_at": seen["recorded_at"],
            "data": real["data"],
            "nonce": None,
        }
        hidden = seen["data"] != real["data"]
        made.append(Guess(record, hidden, real["nonce"]))
    return made


_HASHES: dict[tuple, str] = {}


def _hash(chain_format: int, game_id: str, prev: str, record: Mapping[str, Any]) -> str:
    """events/audit/chain.py's hash, remembered: the attacker recomputes the same chain after every
    step (keyed on every field, so a different guess is a different hash)."""
    key = (chain_format, game_id, prev, record["version"], record["type"], record["seat"])
    key += (record["recorded_at"], record["nonce"], str(record["visible_to"]))
    key += (canonical_json(record["data"]),)
    if key not in _HASHES:
        _HASHES[key] = event_hash(chain_format, game_id, prev, record)
    return _HASHES[key]


_SIGNED: dict[tuple, bool] = {}


def _signed(key: Ed25519PublicKey, game_id: str, version: int, head: str, signature: str) -> bool:
    """Whether the head's signature holds for this head: remembered, like the hashes."""
    memo = (id(key), game_id, version, head, signature)  # the one key lives all the session
    if memo not in _SIGNED:
        _SIGNED[memo] = signature_is_valid(key, game_id, version, head, signature)
    return _SIGNED[memo]


@dataclass(frozen=True)
class Chain:
    """A chain the attacker runs: where it started and whether it covers a guessed secret."""

    head: str
    start: int  # the version of the hash it started from (0: genesis)
    covers_hidden: tuple[int, ...]  # the hidden versions it hashed since

    def then(self, chain_format: int, game_id: str, guess: Guess, nonce: str | None) -> Chain:
        record = {**guess.record, "nonce": nonce} if nonce else guess.record
        hidden = (guess.record["version"],) if guess.hidden else ()
        return Chain(
            _hash(chain_format, game_id, self.head, record), self.start, self.covers_hidden + hidden
        )


def confirmed_secrets(
    game_id: str,
    shown: Sequence[Mapping],
    published: Published,
    true: Sequence[Mapping],
    key: Ed25519PublicKey | None = None,
) -> list[str]:
    """What the attacker confirms, one sentence each; empty when nothing is confirmable.

    `shown` are the events as the viewer got them (oldest first, from version 1), `true` the
    stored records (the guesses), `key` the public audit key (a signature is an oracle too).
    """
    made = guesses(shown, true)
    found: list[str] = []
    for rule, chain_format in RULES:
        from_genesis = anchored = Chain(GENESIS, 0, ())
        for guess in made:
            version = guess.record["version"]
            if version - 1 in published.heads:  # a head it was shown: a fresh start, for free
                anchored = Chain(published.heads[version - 1], version - 1, ())
            tries = []
            if chain_format == 2 and guess.nonce in published.values:  # it was shown the nonce
                tries = [
                    ("format 2 with the nonce shown", anchored.then(2, game_id, guess, guess.nonce))
                ]
            from_genesis = from_genesis.then(chain_format, game_id, guess, None)
            anchored = anchored.then(chain_format, game_id, guess, None)
            tries += [(rule, from_genesis), (rule, anchored)]
            for how, chain in tries:
                if chain.covers_hidden and _published(game_id, version, chain.head, published, key):
                    found.append(
                        f"{how}: the hash at v{version} from v{chain.start} covers hidden"
                        f" event(s) {list(chain.covers_hidden)} and matches what was published"
                    )
    found += _confirmed_deals(shown, published, true)
    return sorted(set(found))


def _published(
    game_id: str, version: int, head: str, published: Published, key: Ed25519PublicKey | None
) -> bool:
    if head in published.values or published.heads.get(version) == head:
        return True
    signature = published.signatures.get(version)
    return bool(key and signature and _signed(key, game_id, version, head, signature))


_SALTED: dict[tuple[str, str, str], bool] = {}


def _confirmed_deals(
    shown: Sequence[Mapping], published: Published, true: Sequence[Mapping]
) -> list[str]:
    """The true deck of each deal against its published commitment, salted with every string
    the viewer was shown: only the true salt would recompute it."""
    decks = {r["data"]["round"]: r["data"]["deck"] for r in true if r["type"] == "DeckSealed"}
    found = []
    for event in shown:
        if event["type"] != "DealCommitted" or event["data"]["round"] not in decks:
            continue
        commitment = event["data"]["commitment"]
        deck = canonical_json(decks[event["data"]["round"]])  # domain.kit.codec.deal_commitment's
        for salt in published.values:
            key = (salt, commitment, deck)  # remembered: the same are tried after every step
            if key not in _SALTED:
                _SALTED[key] = hashlib.sha256((salt + deck).encode()).hexdigest() == commitment
            if _SALTED[key]:
                found.append(f"the deck of round {event['data']['round']} (v{event['version']})")
    return found


def secrets_among(published: Published, true: Sequence[Mapping]) -> list[str]:
    """Nonces and salts shown as they are: none may be before the game ends, not even the
    nonce of a viewer's own event (events/audit/chain.py)."""
    nonces = {r["nonce"]: r["version"] for r in true if r["nonce"]}
    salts = {r["data"]["salt"]: r["version"] for r in true if r["type"] == "DeckSealed"}
    shown = published.values
    return [f"the nonce of v{nonces[n]}" for n in nonces.keys() & shown] + [
        f"the salt of v{salts[s]}" for s in salts.keys() & shown
    ]


def head_with_the_nonces(game_id: str, shown: Sequence[Mapping], true: Sequence[Mapping]) -> str:
    """The head the attacker would reach if it had the nonces too: held to the published head,
    it shows the nonces are all it lacks (a test that confirms nothing for another reason, such
    as a field the attacker rebuilt wrong, would prove nothing)."""
    head = GENESIS
    for guess, real in zip(guesses(shown, true), true, strict=False):
        head = _hash(2, game_id, head, {**guess.record, "nonce": real["nonce"]})
    return head
