"""Pushpin's channels for Cardroom's streams, and what the API tells the stream publisher
(workers/stream_publisher.py) through Redis about the streams Pushpin holds.

Each event of a game is published once per viewer channel: one per seat, one for spectators.
A stream also listens on its credential's channel (seats), and on a channel of its own when it
must end on time; a close published there ends it. A player's notice stream listens on the
player's channel. Pushpin signs its requests to the API with a key derived from the signing key.
"""

from __future__ import annotations

from uuid import UUID

import redis

from events.audit.signing import HeadSigner

KEY_SECONDS = 86400  # a game's watched credentials are forgotten a day after the last joined


def viewer_channel(game_id: UUID | str, viewer: int | None) -> str:
    return f"game-{game_id}-spectators" if viewer is None else f"game-{game_id}-seat-{viewer}"


CREDENTIAL, STREAM, PLAYER = "credential-", "stream-", "player-"


def viewer_of(game_id: UUID | str, channel: str) -> tuple[bool, int | None]:
    """Whether `channel` is a viewer channel of the game, and whose (None: spectators)."""
    kind = channel.removeprefix(f"game-{game_id}-")
    if kind == "spectators":
        return True, None
    seat = kind.removeprefix("seat-")
    return (True, int(seat)) if seat != kind and seat.isdigit() else (False, None)


def credential_channel(credential: str) -> str:
    """The streams a credential (a token's or a key's hash) opened, through its tickets too."""
    return f"{CREDENTIAL}{credential}"


def player_channel(player_id: UUID | str) -> str:
    return f"{PLAYER}{player_id}"


def stream_channel(slot: str) -> str:
    """A stream's own (only when it must end on time, STREAM_MAX_SECONDS)."""
    return f"{STREAM}{slot}"


def watched_key(prefix: str, game_id: UUID | str) -> str:
    """The credentials with streams on the game that Pushpin holds (a Redis set)."""
    return f"{prefix}-watched:{game_id}"


def ends_key(prefix: str) -> str:
    """When streams Pushpin holds must end (STREAM_MAX_SECONDS): a sorted set of their slots."""
    return f"{prefix}-stream-ends"


def watch(connection: redis.Redis, prefix: str, game_id: UUID, credential: str) -> None:
    key = watched_key(prefix, game_id)
    with connection.pipeline() as pipe:
        pipe.sadd(key, credential)
        pipe.expire(key, KEY_SECONDS)
        pipe.execute()


def end_at(connection: redis.Redis, prefix: str, slot: str, when: float) -> None:
    connection.zadd(ends_key(prefix), {slot: when})


PUSHPIN_KEY_PURPOSE = "cardroom/pushpin-requests"  # events.audit.signing.HeadSigner.derived_secret
PUSHPIN_ISSUER = "pushpin"  # the `iss` of the requests Pushpin signs (its `sig_iss`)


def pushpin_key(signer: HeadSigner) -> str:
    """The key Pushpin signs its requests to the API with (its `sig_key`), derived from the
    signing key: every API process and every Pushpin of a deployment agree on it, and no other
    file holds it."""
    return signer.derived_secret(PUSHPIN_KEY_PURPOSE).hex()
