"""Every in-process cache stays within its bound when more games pass through it than it holds,
and still answers what the store holds: the table cache (events/postgres/repository.py), the
stream feeds and their windows of rendered events (api/streams/feeds.py), and the notifier's
per-game waiters and generations (events/postgres/notifications.py)."""

from __future__ import annotations

import gc
import random
import uuid
from types import SimpleNamespace

import pytest

from api.streams.feeds import POLL_SHARE_SECONDS, Feeds, GameFeed
from domain.games import get_game_type
from domain.kit.templates import action_from_template
from domain.tables import table as tables
from domain.tables.snapshot import table_to_json
from events import bootstrap as bootstrap_module
from events.bootstrap import Cardroom, bootstrap
from events.operations.settings import Settings
from events.postgres.notifications import GameNotifier
from events.postgres.repository import Repository
from tests.api.test_round_trips import round_trips

GAME = get_game_type("trick_and_snipers")
SEATS = 3
CAPACITY = 3
GAMES = 10  # more than CAPACITY


@pytest.fixture()
def small_cache(monkeypatch) -> list[Repository]:
    """The repository the next bootstrap builds, with room for CAPACITY tables."""
    built: list[Repository] = []

    def small() -> Repository:
        built.append(Repository(capacity=CAPACITY))
        return built[-1]

    monkeypatch.setattr(bootstrap_module, "Repository", small)
    return built


@pytest.fixture()
def cardroom(database_url, tmp_path, small_cache):
    settings = Settings(database_url=database_url, audit_key_file=str(tmp_path / "k.pem"))
    built = bootstrap(settings, pool_size=4)
    yield built
    built.close()


def dealt_table(cardroom: Cardroom) -> uuid.UUID:
    """A game whose seats all joined (so it is dealt), and each seat has passed its cards."""
    game_id = uuid.uuid4()
    command = tables.CreateTable((tables.SeatInfo(tables.OPEN),) * SEATS, {})
    invites = cardroom.commands.create(game_id, GAME, command).secrets.invites
    for seat in range(SEATS):
        cardroom.commands.join(game_id, seat, f"p{seat}", invites[seat])
    for seat in range(SEATS):
        table, version = cardroom.queries.game(game_id)
        template = table.game_type.legal_actions(table.game, seat)[0]
        action = {"type": template["type"], "cards": template["cards"][: template["count"]]}
        cardroom.commands.act(game_id, seat, action, expected_version=version)
    return game_id


def folded_from_scratch(cardroom: Cardroom, game_id: uuid.UUID) -> tuple[dict, int]:
    version = len(cardroom.queries.events(game_id))
    return table_to_json(cardroom.queries.table_at(game_id, version)), version


def test_the_table_cache_never_holds_more_than_its_capacity_and_loads_every_game_right(
    cardroom, small_cache
):
    repository = small_cache[0]
    games = []
    for _ in range(GAMES):
        games.append(dealt_table(cardroom))
        assert len(repository) <= CAPACITY
    assert len(repository) == CAPACITY
    for game_id in games:  # evicted or not, each game loads as its events fold
        table, version = cardroom.queries.game(game_id)
        assert (table_to_json(table), version) == folded_from_scratch(cardroom, game_id)
        assert len(repository) <= CAPACITY


PLAYING, FINISHED = SimpleNamespace(status="active"), SimpleNamespace(status="finished")


def test_the_table_cache_drops_the_least_recently_used_game_first():
    repository = Repository(capacity=2)
    first, second, third = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    repository.remember(first, 1, PLAYING)  # type: ignore[arg-type]
    repository.remember(second, 1, PLAYING)  # type: ignore[arg-type]
    repository.remember(first, 2, PLAYING)  # type: ignore[arg-type]  # second is now the oldest
    repository.remember(third, 1, PLAYING)  # type: ignore[arg-type]
    assert len(repository) == 2
    assert first in repository and third in repository and second not in repository


def test_finished_games_never_push_a_game_in_play_out_of_the_table_cache():
    repository = Repository(capacity=2, finished_capacity=1)
    playing = [uuid.uuid4(), uuid.uuid4()]
    for game_id in playing:
        repository.remember(game_id, 1, PLAYING)  # type: ignore[arg-type]
    over = [uuid.uuid4() for _ in range(GAMES)]
    for game_id in over:  # games read after their end
        repository.remember(game_id, 9, FINISHED)  # type: ignore[arg-type]
        assert len(repository) <= 3
    assert all(game_id in repository for game_id in (*playing, over[-1]))
    assert not any(game_id in repository for game_id in over[:-1])
    repository.remember(playing[0], 2, FINISHED)  # type: ignore[arg-type]  # it ended: room made
    newer = uuid.uuid4()
    repository.remember(newer, 1, PLAYING)  # type: ignore[arg-type]
    assert all(game_id in repository for game_id in (playing[0], playing[1], newer))


def read_all(feed: GameFeed, viewer: int | None, generation: object) -> list[int]:
    """Versions a stream reading from the start would get, batch after batch."""
    versions: list[int] = []
    while True:
        reading = feed.read(versions[-1] if versions else 0, viewer, generation)
        versions += [version for version, _ in reading.events]
        if not reading.more:
            return versions


def test_feeds_of_games_no_stream_follows_are_dropped_beyond_the_recent_ones(cardroom):
    feeds = Feeds(cardroom.queries, batch=50, recent=CAPACITY)
    for n in range(GAMES):
        game_id = dealt_table(cardroom)
        versions = read_all(feeds.of(game_id), None, generation=n)
        assert versions == list(range(1, len(cardroom.queries.events(game_id)) + 1))
        gc.collect()
        alive, recent = feeds.sizes()
        assert alive <= CAPACITY and recent <= CAPACITY


def test_a_feed_a_stream_still_reads_stays_shared_however_many_games_came_after(cardroom):
    feeds = Feeds(cardroom.queries, batch=50, recent=1)
    followed = dealt_table(cardroom)
    held = feeds.of(followed)  # as an open stream holds it
    for _ in range(CAPACITY + 1):
        feeds.of(dealt_table(cardroom))
    gc.collect()
    assert feeds.of(followed) is held  # a new stream of that game shares the open one's feed
    alive, recent = feeds.sizes()
    assert alive <= 2 and recent == 1  # the followed game's feed, and the most recent one


@pytest.mark.parametrize("batch", [3, 10])  # reads smaller, and larger, than the window
def test_a_feed_holds_at_most_its_window_and_one_read_and_still_serves_every_event(cardroom, batch):
    keep = 4
    game_id = dealt_table(cardroom)
    version = len(cardroom.queries.events(game_id))
    assert version > 2 * keep  # more events than the window holds
    feed = Feeds(cardroom.queries, batch=batch, keep=keep).of(game_id)
    viewers: list[int | None] = [None, *range(SEATS)]
    for viewer in viewers:
        assert read_all(feed, viewer, generation=1) == list(range(1, version + 1))
        events, renders = feed.sizes()
        assert events <= keep + batch and renders <= (keep + batch) * len(viewers)


class CountedReads:
    """The queries, counting the store reads a feed makes."""

    def __init__(self, queries) -> None:
        self.queries = queries
        self.reads = 0

    def events_then_game(self, game_id: uuid.UUID, after: int, limit: int):
        self.reads += 1
        return self.queries.events_then_game(game_id, after, limit)


def play_actions(cardroom: Cardroom, game_id: uuid.UUID, count: int) -> None:
    """`count` actions, each the first legal action of a seat that may act."""
    rng = random.Random(count)
    for _ in range(count):
        table, version = cardroom.queries.game(game_id)
        seat = next(s for s in range(SEATS) if table.game_type.legal_actions(table.game, s))
        template = table.game_type.legal_actions(table.game, seat)[0]
        action = action_from_template(template, rng)
        cardroom.commands.act(game_id, seat, action, expected_version=version)


def test_a_burst_longer_than_the_window_is_one_read_for_every_stream_at_the_head(cardroom):
    # Given streams of every viewer at the head of a feed that keeps 2 past events
    keep = 2  # so the burst is 4 actions: fewer than any game can end in (2 points, 3 seats)
    game_id = dealt_table(cardroom)
    counted = CountedReads(cardroom.queries)
    feed = GameFeed(game_id, counted, batch=50, keep=keep)  # type: ignore[arg-type]
    viewers: list[int | None] = [None, *range(SEATS)]
    head = {viewer: read_all(feed, viewer, generation=1)[-1] for viewer in viewers}
    # When the game gains more events than the window keeps, all at once
    play_actions(cardroom, game_id, 2 * keep)
    version = len(cardroom.queries.events(game_id))
    assert version - max(head.values()) > keep
    counted.reads = 0
    # Then every viewer's streams get every new event from one read of the store
    for viewer in viewers * 3:
        reading = feed.read(head[viewer], viewer, generation=2)
        assert [v for v, _ in reading.events] == list(range(head[viewer] + 1, version + 1))
    assert counted.reads == 1


def test_while_nothing_is_notified_the_polls_of_a_games_streams_share_a_read(cardroom):
    # Given a feed whose notifier is not listening (generation None), streams at its head
    now = [100.0]
    game_id = dealt_table(cardroom)
    counted = CountedReads(cardroom.queries)
    feed = GameFeed(game_id, counted, batch=50, clock=lambda: now[0])  # type: ignore[arg-type]
    viewers: list[int | None] = [None, *range(SEATS)]
    head = len(cardroom.queries.events(game_id))
    # When every stream of every viewer polls at one moment, after a commit
    play_actions(cardroom, game_id, 1)
    committed = len(cardroom.queries.events(game_id))
    counted.reads = 0
    readings = [feed.read(head, viewer, None) for viewer in viewers * 3]
    # Then they share one read of the store, and each got the new events
    assert counted.reads == 1
    assert all([v for v, _ in r.events] == list(range(head + 1, committed + 1)) for r in readings)
    # And a poll a moment later reads the store again: it may hold a newer commit
    play_actions(cardroom, game_id, 1)
    later = len(cardroom.queries.events(game_id))
    now[0] += POLL_SHARE_SECONDS
    polled = feed.read(committed, None, None)
    assert [v for v, _ in polled.events] == list(range(committed + 1, later + 1))
    assert counted.reads == 2


def test_the_notifier_forgets_a_game_once_its_last_stream_closed(database_url):
    notifier = GameNotifier(database_url)
    try:
        for _ in range(GAMES):
            game_id = uuid.uuid4()
            subscriptions = [notifier.subscribe(game_id) for _ in range(3)]
            assert len(notifier._waiters) == 1 and len(notifier._generations) == 1
            for subscription in subscriptions:
                subscription.close()
        assert notifier._waiters == {} and notifier._generations == {}
    finally:
        notifier.close()


def test_a_feed_at_the_head_of_a_cached_game_reads_each_commit_with_one_statement(
    cardroom, monkeypatch
):
    # Given a feed that has read a game to its head (so its table is cached at that version)
    game_id = dealt_table(cardroom)
    feed = GameFeed(game_id, cardroom.queries, batch=50)
    head = read_all(feed, None, generation=1)[-1]
    # When a commit comes and the feed reads it
    play_actions(cardroom, game_id, 1)
    with round_trips(monkeypatch) as count:
        reading = feed.read(head, None, generation=2)
    # Then that was one statement, and the table it renders with is the game as folded anew
    assert count[0] == 1
    version = len(cardroom.queries.events(game_id))
    assert [v for v, _ in reading.events] == list(range(head + 1, version + 1))
    table, cached_version = cardroom.queries.events_then_game(game_id, version, 50)[1:3]
    assert cached_version == version
    assert table_to_json(table) == folded_from_scratch(cardroom, game_id)[0]
