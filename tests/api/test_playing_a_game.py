"""A whole Trick & Snipers game over HTTP, and what a client sees along the way."""

from __future__ import annotations

import random

from tests.api.play import auth, create_game, humans, play_one, play_to_end, tokens_of


def test_a_table_of_humans_plays_a_whole_game_to_a_result(client):
    created = create_game(client, "trick_and_snipers", humans(4))
    assert created["status"] == "active" and created["phase"] == "passing"
    final = play_to_end(client, created["id"], tokens_of(created))
    assert final["status"] == "finished"
    assert final["to_act"] == []
    assert set(final["result"]["winners"]) | set(final["result"]["losers"]) == {0, 1, 2, 3}


def test_the_event_log_has_one_event_per_version_and_replays_to_the_same_game_with_every_hand_open(
    client,
):
    created = create_game(client, "trick_and_snipers", humans(3))
    final = play_to_end(client, created["id"], tokens_of(created), seed=3)
    events = client.get(f"/games/{created['id']}/events?limit=1000").get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    replayed = client.get(f"/games/{created['id']}/replay?version={final['version']}").get_json()
    # The game is over, so the replay opens every seat's cards: as each seat's own view has them
    for seat, token in tokens_of(created).items():
        own = client.get(f"/games/{created['id']}", headers=auth(token)).get_json()["you"]
        opened = {
            key: replayed["seats"][seat].pop(key) for key in own.keys() - {"seat", "legal_actions"}
        }
        assert opened == {key: own[key] for key in opened}
    assert replayed == final


def test_a_replay_shows_the_game_as_it_stood_at_that_version(client):
    created = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(created)[0]
    early = client.get(f"/games/{created['id']}", headers=auth(token)).get_json()
    play_to_end(client, created["id"], tokens_of(created), seed=4)
    replayed = client.get(
        f"/games/{created['id']}/replay?version={early['version']}", headers=auth(token)
    ).get_json()
    assert replayed["you"]["hand"] == early["you"]["hand"]
    assert replayed["phase"] == "passing"


def test_a_game_answers_if_none_match_with_304_until_it_changes(client):
    created = create_game(client, "trick_and_snipers", humans(3))
    url = f"/games/{created['id']}"
    first = client.get(url)
    assert first.headers["ETag"] == f'"{created["version"]}"'
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    play_one(client, created["id"], 0, tokens_of(created)[0], random.Random(1))
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    assert again.headers["ETag"] == f'"{created["version"] + 1}"'


def test_a_fixed_deck_is_dealt_in_order_and_its_leftovers_stay_hidden(client):
    deck = [
        {"suit": suit, "rank": rank}
        for suit in ("blue", "green", "yellow", "red")
        for rank in range(12, 0, -1)
    ]
    game = create_game(client, "trick_and_snipers", humans(4), {"deck": deck, "first_leader": 2})
    tokens = tokens_of(game)
    for seat in range(4):
        mine = client.get(f"/games/{game['id']}", headers=auth(tokens[seat])).get_json()
        hand = mine["you"]["hand"]
        assert sorted(map(str, hand)) == sorted(map(str, deck[seat * 11 : (seat + 1) * 11]))
    assert game["leader"] == 2 and game["options"] == {"first_leader": 2}
    spectator_events = client.get(f"/games/{game['id']}/events").get_json()["events"]
    assert "rank" not in str(spectator_events)  # no card is public before the first play
    final = play_to_end(client, game["id"], tokens, seed=9)
    events = client.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    chosen = next(e for e in events if e["type"] == "FixedDecksChosen")
    assert chosen["data"]["decks"] == [deck]
    assert final["status"] == "finished"
