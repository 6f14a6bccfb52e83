"""The Python client against a live server: whole games, streams that resume, typed problems,
and an act whose answer was lost applied once."""

from __future__ import annotations

import asyncio
import threading
from contextlib import ExitStack

import cardroom_client
import httpx
import pytest
from cardroom_client import (
    AsyncCardroom,
    Cardroom,
    Game,
    IllegalAction,
    NotFound,
    ProblemError,
    Unauthorized,
    WebhookVerificationError,
    bot,
    first_legal_action,
    human,
    verify_webhook,
)
from cardroom_client.sync import Seat

from tests.api.play import auth
from tests.api.real_server import gunicorn_serving
from tests.api.spec import load_spec
from tests.api.webhook_receiver import receiving
from tests.clients.conftest import SERVER_ENVIRONMENT
from tests.clients.cutting_proxy import CuttingProxy

GAME_TYPES = ["st_patrick", "ouroboros_trick", "trick_and_snipers", "saint_poker"]


def smallest_table(cr: Cardroom, game_type: str) -> int:
    return next(t["min_players"] for t in cr.game_types() if t["id"] == game_type)


def play_to_the_end(seat: Seat) -> Game:
    """Acts whenever the seat's view says it is its turn, woken by the seat's event stream."""
    game = seat.view()
    if game.my_turn():
        seat.act(first_legal_action(game))
    for _event in seat.events():
        game = seat.view()
        if game.my_turn():
            seat.act(first_legal_action(game))
    return seat.view()


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_a_whole_game_of_each_type_is_played_through_the_client(server_url, game_type):
    with Cardroom(server_url) as cr:
        bots = [bot("basic")] * (smallest_table(cr, game_type) - 1)
        table = cr.create_game(game_type, [human("Ann"), *bots])
        final = play_to_the_end(table.seat(0))
        assert final.finished and final.result is not None
        assert set(final.result.winners) | set(final.result.losers) <= set(range(len(bots) + 1))
        assert cr.audit(table.id)["state_matches"] is True
        assert cr.export(table.id).count(b"\n") >= final.version


def test_the_async_client_plays_a_whole_game_too(server_url):
    async def play() -> Game:
        async with AsyncCardroom(server_url) as cr:
            table = await cr.create_game("trick_and_snipers", [human("Ann"), *[bot()] * 2])
            seat = table.seat(0)
            game = await seat.view()
            if game.my_turn():
                await seat.act(first_legal_action(game))
            async for _event in seat.events():
                game = await seat.view()
                if game.my_turn():
                    await seat.act(first_legal_action(game))
            return await seat.view()

    final = asyncio.run(play())
    assert final.finished and final.result is not None


def test_a_stream_cut_midway_resumes_with_no_event_lost_or_repeated(server_url, proxy):
    with Cardroom(server_url) as cr:
        table = cr.create_game("trick_and_snipers", [*[bot("random")] * 3])
    seen: list[int] = []
    cuts = 0
    with Cardroom(proxy.url) as through_proxy:
        for event in through_proxy.stream(table.id, None, None):
            seen.append(event.version)
            # Three cuts in the middle of the play (three random bots may end a game in 21
            # events).
            if len(seen) % 5 == 0 and cuts < 3:
                proxy.cut()
                cuts += 1
        final = through_proxy.game(table.id)
    assert cuts == 3 and final.finished
    assert seen == list(range(1, final.version + 1))


def test_a_stream_resumes_across_a_server_restart_with_no_event_lost_or_repeated(
    server_url, clients_settings
):
    with Cardroom(server_url) as cr:  # the bots play on the worker while the server is down
        table = cr.create_game("st_patrick", [*[bot("random")] * 3])
    seen: list[int] = []
    with ExitStack() as stack:
        first = stack.enter_context(gunicorn_serving(clients_settings, **SERVER_ENVIRONMENT))
        proxy = stack.enter_context(CuttingProxy(first.port))
        with Cardroom(proxy.url) as through_proxy:
            for event in through_proxy.stream(table.id, None, None):
                seen.append(event.version)
                if len(seen) == 10:
                    first.process.terminate()
                    first.process.wait(timeout=15)
                    second = stack.enter_context(
                        gunicorn_serving(clients_settings, **SERVER_ENVIRONMENT)
                    )
                    proxy.target_port = second.port
            final = through_proxy.game(table.id)
    assert final.finished
    assert seen == list(range(1, final.version + 1))


def test_a_seat_stream_resumes_after_the_version_it_was_given(server_url):
    with Cardroom(server_url) as cr:
        table = cr.create_game("saint_poker", [human("Ann"), bot("random")])
        final = play_to_the_end(table.seat(0))
        later = [event.version for event in table.seat(0).events(after=final.version - 3)]
        assert later == [final.version - 2, final.version - 1, final.version]


def test_an_act_whose_answer_was_dropped_is_retried_and_applied_once(server_url, proxy):
    with Cardroom(server_url) as direct:
        table = direct.create_game("trick_and_snipers", [human("Ann"), *[bot()] * 2])
        token = table.tokens[0]
        with Cardroom(proxy.url) as through_proxy:
            seat = Seat(through_proxy, table.id, 0, token)
            game = seat.view()
            while not game.my_turn():
                game = seat.view()
            proxy.drop_next_answer()
            result = seat.act(first_legal_action(game))
        assert proxy.dropped == 1
        mine = [e for e in direct.events(table.id) if e.seat == 0 and e.type == "CardsPassed"]
        assert len(mine) == 1
        assert result.version >= mine[0].version


def test_a_refused_action_raises_the_problems_own_exception(server_url):
    with Cardroom(server_url) as cr:
        table = cr.create_game("trick_and_snipers", [human("Ann"), *[bot()] * 2])
        seat = table.seat(0)
        with pytest.raises(IllegalAction) as refused:
            seat.act({"type": "play_card", "card": {"suit": "red", "rank": 1}})
        assert refused.value.status == 409 and refused.value.body["code"] == "illegal-action"
        assert "legal_actions" in refused.value.body
        with pytest.raises(NotFound):
            cr.game("00000000-0000-4000-8000-000000000000")
        with pytest.raises(Unauthorized):
            Seat(cr, table.id, 0, "not-a-token-of-this-game-at-all").act({"type": "pass_relics"})


def test_every_problem_code_the_spec_lists_has_its_exception():
    codes = set(load_spec()["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    assert codes <= set(cardroom_client.BY_CODE)
    for code in codes:
        assert issubclass(cardroom_client.BY_CODE[code], ProblemError)


def test_a_player_queues_is_told_and_sees_its_tables(server_url):
    player, key = Cardroom.create_player(server_url, "Queuer")
    with Cardroom(server_url, key=key) as cr:
        assert cr.player(player.id).name == "Queuer"
        notices: list[cardroom_client.Notice] = []

        def listen() -> None:
            for notice in cr.notices():
                notices.append(notice)
                if notice.kind == "match_found":
                    return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        cr.join_queue("trick_and_snipers", players=[3], rated=False, bots_after_seconds=0)
        listener.join(timeout=60)
        assert [n.kind for n in notices][-1:] == ["match_found"]
        assert cr.queue()["status"] == "matched"
        game_id = notices[-1].game_id
        assert any(g["game_id"] == game_id for g in cr.my_games())
        assert isinstance(cr.leaderboard("trick_and_snipers"), list)


def test_webhooks_are_added_listed_and_removed(server_url):
    _player, key = Cardroom.create_player(server_url, "Hooked")
    with Cardroom(server_url, key=key) as cr:
        hook = cr.add_webhook("http://127.0.0.1:9/hook", events=["your_turn"])
        assert hook["secret"].startswith("whsec_")
        assert [h["id"] for h in cr.webhooks()] == [hook["id"]]
        cr.remove_webhook(hook["id"])
        assert cr.webhooks() == []


def test_verify_webhook_accepts_a_real_delivery_and_refuses_a_tampered_one(server_url):
    _player, key = Cardroom.create_player(server_url, "Verifier")
    with receiving() as receiver, Cardroom(server_url, key=key) as cr:
        hook = cr.add_webhook(receiver.url, events=["your_turn"])
        receiver.secret = hook["secret"]
        ping = httpx.post(f"{server_url}/me/webhooks/{hook['id']}/test", headers=auth(key))
        assert ping.status_code in (201, 202), ping.text
        (delivery,) = receiver.wait_for(1)
        notice = verify_webhook(hook["secret"], delivery.headers, delivery.body)
        assert notice.kind == delivery.payload["kind"]
        with pytest.raises(WebhookVerificationError):
            verify_webhook(hook["secret"], delivery.headers, delivery.body + b" ")
        with pytest.raises(WebhookVerificationError):
            verify_webhook("whsec_" + "A" * 44, delivery.headers, delivery.body)


def test_the_async_clients_stream_resumes_after_a_cut_and_its_problems_are_typed(server_url, proxy):
    async def follow() -> tuple[list[int], int]:
        async with AsyncCardroom(server_url) as direct, AsyncCardroom(proxy.url) as cr:
            table = await direct.create_game("saint_poker", [human("Ann"), bot("random")])
            with pytest.raises(IllegalAction):
                await table.seat(0).act({"type": "pass_relics"})
            table = await direct.create_game("trick_and_snipers", [bot("random")] * 3)
            seen: list[int] = []
            async for event in cr.stream(table.id, None, None):
                seen.append(event.version)
                if len(seen) in (5, 9):
                    proxy.cut()
                if len(seen) == 12:
                    break
            async for event in cr.stream(table.id, None, 12):
                seen.append(event.version)
                if event.version == 15:
                    break
            return seen, 15

    seen, last = asyncio.run(follow())
    assert seen == list(range(1, last + 1))
