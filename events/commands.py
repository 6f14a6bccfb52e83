"""The write side of the clients: creating tables, acting, joining, leaving and new tokens,
each in one unit of work. Lock the game, load it, decide, then events/committing.py appends and
queues what the table waits for next; record the idempotent request; return domain results,
never HTTP shapes. What the service does by itself is events/automation.py's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID, uuid4

from domain.kit.decider import IllegalAction
from domain.kit.game_type import GameType
from domain.shared.seeds import SeedSetup, seed_commitment
from domain.tables import table as tables
from domain.tables.actions import command_from_action
from domain.tables.notices import Notice, matches_found
from domain.tables.presence import LeaveSeat
from domain.tables.table import HUMAN, OPEN
from events.committing import Committer
from events.errors import (
    ActionRefused,
    Forbidden,
    QueueMoved,
    Unauthorized,
    VersionConflict,
)
from events.idempotent_requests import IdempotentRequest
from events.records import StreamHead
from events.replies import Replies
from events.results import Committed, Replayed, SeatSecrets
from events.sealing import Sealer
from events.seeds import (
    COMMITMENT_LIFETIME,
    NoSuchCommitment,
    SeedCommitment,
    SeedRequest,
    draw_server_seed,
    joining_seed,
    seed_setup,
)
from events.unit_of_work import UnitOfWork


@dataclass(frozen=True)
class ActionRequest:
    """What a seat's action request asks: the action, the version it expects the game at (if
    any) and its Idempotency-Key (if any)."""

    action: dict[str, Any]
    expected_version: int | None = None
    idem: IdempotentRequest | None = None


class Commands:
    def __init__(
        self,
        units: Callable[[], UnitOfWork],
        sealer: Sealer,
        committer: Committer,
        new_token: Callable[[], str],
    ) -> None:
        self._units = units
        self._replies = Replies(sealer)
        self._committer = committer
        self._new_token = new_token

    def create(
        self,
        game_id: UUID,
        game_type: GameType,
        command: tables.CreateTable,
        idem: IdempotentRequest | None = None,
        seeds: SeedRequest = SeedRequest(),  # noqa: B008 - frozen: one shared default is safe
        creator: str = "",
    ) -> Committed | Replayed:
        """A table, dealt at once if no seat is open; a token for each human seat, an invite
        for each open one. Its server seed is the commitment's, if `seeds` names one, else one
        drawn now. `creator` names who asked (the workers are shared fairly between
        creators)."""
        drawn = seed_setup(command.seats, seeds.client_seeds, self._committer.rng)
        tables.decide_create(game_type, replace(command, seeding=drawn))  # bad input: no work
        secrets = self._secrets_for(command.seats)
        with self._units() as uow:
            if idem and (replay := self._replies.claim(uow, idem)):
                return replay
            seeding = self._with_commitment(uow, drawn, seeds.commitment)
            committed = self._create_in(uow, game_id, game_type, replace(command, seeding=seeding),
                                        creator)  # fmt: skip
            uow.save_tokens(game_id, secrets.tokens)
            uow.save_invites(game_id, secrets.invites)
            committed = replace(committed, secrets=secrets)
            if idem:
                self._replies.record(uow, idem, committed, None)
        return committed

    def create_match(
        self,
        game_id: UUID,
        game_type: GameType,
        command: tables.CreateTable,
        entries: Mapping[int, int],
        creator: str = "",
    ) -> Committed:
        """A table the matchmaker formed: `entries` maps each player's seat to its queue entry.
        The entries leave the queue in the transaction that creates the table, all of them or
        none (QueueMoved: one was left, or another matcher is seating it), and each player is
        told `match_found`. The seats are the players' own: their keys act for them, so no
        seat token is made (nobody would be shown it)."""
        command = replace(command, seeding=seed_setup(command.seats, (), self._committer.rng))
        tables.decide_create(game_type, command)  # bad input: no work
        with self._units() as uow:
            taken = {entry.id: entry for entry in uow.take_queue_entries(list(entries.values()))}
            if len(taken) != len(entries):
                raise QueueMoved("a player left the queue, or another matcher seats one")
            seated = [(seat, command.seats[seat].player or "") for seat in entries]
            committed = self._create_in(uow, game_id, game_type, command, creator,
                                        matches_found(seated))  # fmt: skip
            uow.record_matches(game_id, {seat: taken[entry] for seat, entry in entries.items()})
        return committed

    def _create_in(
        self,
        uow: UnitOfWork,
        game_id: UUID,
        game_type: GameType,
        command: tables.CreateTable,
        creator: str,
        notices: Sequence[Notice] = (),
    ) -> Committed:
        created, *rest = tables.decide_create(game_type, command)
        head = uow.create_stream(game_id, game_type.id, creator)
        assert isinstance(created, tables.TableCreated)  # decide_create's first event
        table = tables.create(game_type, created)
        return self._committer.commit(
            uow, game_id, head, table, rest, applied=[created], notices=notices
        )

    @staticmethod
    def _with_commitment(uow: UnitOfWork, drawn: SeedSetup, commitment: UUID | None) -> SeedSetup:
        """The seeds with the server seed of the commitment given out before, which this table
        uses up; without one, the server seed drawn now."""
        if commitment is None:
            return drawn
        server_seed = uow.take_seed_commitment(commitment)
        if server_seed is None:
            raise NoSuchCommitment()
        return replace(drawn, server_seed=server_seed, committed_in_advance=True)

    def commit_seed(self) -> SeedCommitment:
        """A fresh secret server seed, kept for a table to come; its hash goes out now."""
        server_seed, commitment_id = draw_server_seed(self._committer.rng), uuid4()
        with self._units() as uow:
            expires = uow.save_seed_commitment(commitment_id, server_seed, COMMITMENT_LIFETIME)
        return SeedCommitment(commitment_id, seed_commitment(server_seed), expires)

    def _secrets_for(self, seats: tuple[tables.SeatInfo, ...]) -> SeatSecrets:
        return SeatSecrets(
            tokens={s: self._new_token() for s, seat in enumerate(seats) if seat.kind == HUMAN},
            invites={s: self._new_token() for s, seat in enumerate(seats) if seat.kind == OPEN},
        )

    def act(
        self,
        game_id: UUID,
        seat: int,
        action: dict[str, Any],
        expected_version: int | None = None,
        idem: IdempotentRequest | None = None,
    ) -> Committed | Replayed:
        """A seat's action. Writers of a game take turns on its lock, so without
        `expected_version` a concurrent write delays an action and never fails it."""
        with self._units() as uow:
            if idem and (replay := self._replies.claim(uow, idem)):
                return replay
            head = uow.lock(game_id)
            request = ActionRequest(action, expected_version, idem)
            return self._act_locked(uow, game_id, head, seat, request)

    def act_as(
        self, game_id: UUID, token: str, request: ActionRequest
    ) -> tuple[int, Committed | Replayed]:
        """An action by whoever holds `token`, its request already read and validated: nothing
        waits on a client while the game is locked. The game's lock and the token's seat come
        in one round trip. The request's Idempotency-Key is scoped to that seat and claimed
        under the lock, so a retry sent while the first is served waits for it and gets its
        answer. Returns the seat that acted and what its action did."""
        with self._units() as uow:
            head, seat = uow.lock_as(game_id, token)
            if seat is None:
                raise Unauthorized()
            if request.idem:
                scoped = replace(request.idem, scope=f"{request.idem.scope}:{seat}")
                if replay := self._replies.claim(uow, scoped):
                    return seat, replay
                request = replace(request, idem=scoped)
            return seat, self._act_locked(uow, game_id, head, seat, request)

    def _act_locked(
        self, uow: UnitOfWork, game_id: UUID, head: StreamHead, seat: int, request: ActionRequest
    ) -> Committed:
        expected = request.expected_version
        if expected is not None and expected != head.version:
            raise VersionConflict(game_id, expected, head.version)
        table = uow.load(game_id, head)
        try:
            command = command_from_action(table.game_type, seat, request.action)
            decided = tables.decide(table, command)
        except IllegalAction as error:
            raise ActionRefused(error.message, _legal(table, seat)) from None
        committed = self._committer.commit(uow, game_id, head, table, decided, acted=seat)
        if request.idem:
            self._replies.record(uow, request.idem, committed, seat)
        return committed

    def join(
        self,
        game_id: UUID,
        seat: int,
        name: str,
        invite: str | None,
        given_seed: str | None = None,
        player: str | None = None,
    ) -> Committed:
        """Takes an open seat with its invite (or, for a seat kept for a player, with that
        player's key: `player`); the game is dealt once no seat is open. At a seeded table the
        seat brings its seed: the one given, or one the server draws."""
        token = self._new_token()
        with self._units() as uow:
            head = uow.lock(game_id)
            table = uow.load(game_id, head)
            seed = joining_seed(table.seeds is not None, given_seed, self._committer.rng)
            decided = tables.decide(table, tables.JoinSeat(seat, name, seed, player))
            kept = player is not None and table.seats[seat].player == player
            if not kept and (invite is None or not uow.invite_matches(game_id, seat, invite)):
                raise Forbidden(f"that is not the invite of seat {seat}")
            committed = self._committer.commit(uow, game_id, head, table, decided)
            uow.save_tokens(game_id, {seat: token})
        return replace(committed, secrets=SeatSecrets(tokens={seat: token}))

    def new_token(self, game_id: UUID, seat: int) -> str:
        """A new token for the seat; the one it had stops working when this commits, and the
        streams it opened end."""
        token = self._new_token()
        with self._units() as uow:
            uow.lock(game_id)
            uow.save_tokens(game_id, {seat: token})
            uow.wake_streams(game_id)
        return token

    def leave(self, game_id: UUID, seat: int) -> Committed:
        """The seat's holder leaves: its token stops working. Before the deal the seat opens
        again (a new invite is made for it); after, the basic bot plays it to the end."""
        with self._units() as uow:
            head = uow.lock(game_id)
            table = uow.load(game_id, head)
            decided = tables.decide(table, LeaveSeat(seat))
            committed = self._committer.commit(uow, game_id, head, table, decided)
            uow.revoke_token(game_id, seat)
            invites = {}
            if committed.table.seats[seat].kind == OPEN:
                invites[seat] = self._new_token()
                uow.save_invites(game_id, invites)
        return replace(committed, secrets=SeatSecrets(invites=invites))


def _legal(table: tables.Table, seat: int) -> list[dict[str, Any]]:
    if not table.started or table.status == "finished":
        return []
    return table.game_type.legal_actions(table.game, seat)
