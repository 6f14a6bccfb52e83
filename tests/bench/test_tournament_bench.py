"""bench.bot_strength.tournament's core on a handful of games: seats and player counts rotate, every
game's win is shared out exactly once, the ratio's interval holds the ratio, a missing level is
skipped rather than played, a seed gives the same games, and runs saved apart chart together."""

from __future__ import annotations

import json

import pytest

from bench.bot_strength.games import Job
from bench.bot_strength.tournament import BENCHMARK, merged_runs, plan, play_game, report, summarize
from bench.support.benchmark import Context
from domain.games import GAME_TYPES

GAMES = 6


@pytest.fixture(scope="module")
def records():
    return [
        play_game(Job(game, ("basic", "random"), number, seed=3))
        for game in sorted(GAME_TYPES)
        for number in range(GAMES)
    ]


def test_seats_and_player_counts_rotate_through_each_games_allowed_counts(records):
    for game, game_type in GAME_TYPES.items():
        mine = [r for r in records if r.game == game]
        allowed = range(game_type.min_players, game_type.max_players + 1)
        assert {r.players for r in mine} == set(allowed)
        assert all(0 <= r.seat_a < r.players for r in mine)
        assert len({(r.players, r.seat_a) for r in mine}) == GAMES  # no game repeated


def test_a_games_shares_add_up_to_at_most_one_win_and_losses_to_at_most_every_seat(records):
    for record in records:
        assert 0 <= record.share_a <= 1
        assert record.lost_b <= record.players - 1
        assert not (record.share_a and record.lost_a)  # a loser has no part of the win
    figures = report(records, [], seed=1)
    assert sum(row["games"] for row in figures["results"]) == len(records)


def test_the_interval_holds_the_ratio_and_the_ratio_is_share_over_fair_share(records):
    for game in GAME_TYPES:
        row = summarize([r for r in records if r.game == game], seed=1)
        assert row["games"] == GAMES
        assert row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
        assert row["ratio"] == pytest.approx(row["share"] / row["fair_share"], abs=0.01)


def test_each_bot_decision_is_timed_under_its_own_level(records):
    for record in records:
        assert set(record.seconds) == {"basic", "random"}
        assert all(seconds > 0 for times in record.seconds.values() for seconds in times)


def test_a_level_a_game_does_not_have_is_skipped_not_played():
    settings = BENCHMARK.resolved(quick=True, given={"games_of": ["ouroboros_trick"],
                                                     "pairings": ["nonesuch:random"]})  # fmt: skip
    jobs, skipped = plan(settings)
    assert jobs == [] and skipped[0]["pairing"] == "nonesuch:random"


def test_the_same_seed_plays_the_same_game():
    job = Job("trick_and_snipers", ("basic", "random"), 4, seed=9)
    first, again = play_game(job), play_game(job)
    assert (first.share_a, first.lost_b, first.seat_a) == (
        again.share_a,
        again.lost_b,
        again.seat_a,
    )


def test_runs_saved_apart_chart_together_the_later_row_replacing_the_earlier(records, tmp_path):
    figures = report(records, [], seed=1)
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps({**figures, "settings": {"iterations": 200}}))
    newer = dict(figures["results"][0], ratio=9.0, ratio_low=8.0, ratio_high=10.0)
    second.write_text(json.dumps({"results": [newer], "settings": {"iterations": 2000}}))

    merged = merged_runs([first, second])

    assert len(merged) == len(figures["results"])
    replaced = [r for r in merged if r["game"] == newer["game"]]
    assert replaced == [{**newer, "iterations": 2000}]
    assert all(r["iterations"] == 200 for r in merged if r["game"] != newer["game"])
    png = tmp_path / "chart.png"
    given = {"chart_from": [str(first), str(second)], "chart": str(png)}
    assert BENCHMARK.run(Context(""), BENCHMARK.resolved(quick=True, given=given)) == {}
    assert png.read_bytes().startswith(b"\x89PNG")
