"""Random complete St Patrick games keep every invariant, read independently of the rules'
code: cards conserved, 15 bites a round, life changes as S5/S6/S8 say, every game ends, and no
view shows a seat a card it may not see. Events survive the codec unchanged."""

from __future__ import annotations

import json
import random

import pytest

from domain.games.st_patrick import GAME
from domain.games.st_patrick import events as ev
from domain.games.st_patrick.state import DECK, State
from domain.kit.cards import Card
from domain.kit.codec import from_json, to_json
from domain.kit.decider import Automatic, Deal, IllegalAction, fold
from domain.kit.templates import action_from_template
from domain.shared.tricks import PlayCard
from domain.tables.selfplay import bot_table, steps
from tests.domain.stp_support import command_for
from tests.domain.support import for_each_seed, survives_storage, visible_pairs

MAX_DECISIONS = 20_000


def bite(card) -> int:
    """S1 written out again: snakes 1, the cross and harp 7s 3, the rest 0."""
    if card.suit == "snake":
        return 1
    return 3 if card.rank == 7 and card.suit in ("cross", "harp") else 0


class Referee:
    """Follows the events alone and says what each round's life changes must be."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.life = [20] * players
        self.held = [0] * players
        self.bites = [0] * players
        self.won: list = []
        self.special = False
        self.rounds = 0

    def see(self, event) -> None:
        n = self.players
        if isinstance(event, ev.DealCommitted):
            self.bites, self.won, self.special = [0] * n, [], False
        elif isinstance(event, ev.RelicPhaseStarted):
            self.held = [0] * n
        elif isinstance(event, ev.RelicsTaken):
            self.held[event.seat] += event.count
            assert event.left == 15 - sum(self.held)
        elif isinstance(event, ev.RelicsCursed):
            assert sum(self.held) == 15 and event.losses == tuple(self.held)  # S5
            self.life = [life - lost for life, lost in zip(self.life, self.held, strict=True)]
            assert event.life == tuple(self.life)
        elif isinstance(event, ev.HuntStarted):
            self.special = event.special
        elif isinstance(event, ev.TrickWon):
            self.won += event.cards
            self.bites[event.seat] += sum(bite(card) for card in event.cards)
        elif isinstance(event, ev.RoundScored):
            self.check_round(event)

    def check_round(self, event: ev.RoundScored) -> None:
        assert sum(self.bites) == 15 and sorted(self.won) == sorted(DECK)  # every card played
        pairs = list(zip(self.bites, self.held, strict=True))
        if self.special:  # S6
            expected = [1 if bites <= held else 0 for bites, held in pairs]
        elif 15 in self.bites:  # S8, the big sacrifice
            expected = [0 if bites == 15 else -3 for bites, _ in pairs]
        else:
            expected = [-max(0, bites - held) for bites, held in pairs]
        assert event.changes == tuple(expected)
        assert event.bites == tuple(self.bites) and event.relics == tuple(self.held)
        self.life = [life + change for life, change in zip(self.life, expected, strict=True)]
        assert event.life == tuple(self.life)
        self.rounds += 1


EVERY_CARD = frozenset(DECK)


def conserved(state: State, played_this_round: list) -> None:
    """Every card of the deck exactly once: in a hand, passed on its way, in the trick or in a
    trick won this round (between rounds there are no cards)."""
    if state.phase in ("dealing", "finished"):
        return
    pending = [c for cs in state.passed if cs for c in cs] if state.phase == "passing" else []
    held = [c for hand in state.hands for c in hand]
    every = held + pending + [play.card for play in state.trick] + played_this_round
    assert len(every) == len(EVERY_CARD) and set(every) == EVERY_CARD


def known_to(state: State, seat: int | None) -> set[tuple[str, int]]:
    known = {play.card for play in state.trick} | {play.card for play in state.last_trick}
    known |= {card for cards in state.bite_cards for card in cards}
    if seat is not None:
        known |= set(state.hands[seat]) | set(state.passed[seat] or ())
        known |= set(state.received[seat] or ())
    return {(card.suit, card.rank) for card in known}


def check_views(state: State, rng: random.Random) -> None:
    """One viewer's view at every decision (a seat or a spectator, drawn at random): over a
    thousand games every viewer is checked in every phase many times over."""
    seat = rng.choice((None, *range(state.players)))
    table = GAME.view(state, seat)
    assert visible_pairs(table) <= known_to(state, seat)
    assert table["to_act"] == list(GAME.to_act(state))
    if seat is not None:
        assert bool(table["you"]["legal_actions"]) == (seat in GAME.to_act(state))


def check_secrets(events: list) -> None:
    for event in events:
        if event.visible_to() is not None:
            assert not visible_pairs(event.redacted())


def check_refusal(state: State, seat: int, template: dict, rng: random.Random) -> None:
    """A card the play template does not offer is refused (S7: follow suit, first lead)."""
    if template["type"] != "play_card":
        return
    offered = {Card.from_json(card) for card in template["cards"]}
    others = sorted(set(state.hands[seat]) - offered)
    if others:
        with pytest.raises(IllegalAction):
            GAME.decide(state, PlayCard(seat, rng.choice(others)))


def play_random_game(players: int, seed: int, snake_lead: bool) -> Referee:
    rng = random.Random(seed)
    referee = Referee(players)
    state = GAME.new_game(players, {"first_lead_snake_allowed": snake_lead})
    played: list = []
    for _ in range(MAX_DECISIONS):
        if GAME.is_terminal(state):
            break
        if (to_deal := GAME.cards_to_deal(state)) is not None:
            command = Deal(tuple(rng.sample(to_deal, len(to_deal))), "s", 0)
        elif kind := GAME.automatic(state):
            assert GAME.to_act(state) == ()
            command = Automatic(kind)
        else:
            seat = rng.choice(GAME.to_act(state))
            templates = GAME.legal_actions(state, seat)
            check_refusal(state, seat, templates[0], rng)
            command = command_for(seat, action_from_template(rng.choice(templates), rng))
        events = GAME.decide(state, command)
        check_secrets(events)
        for event in events:
            referee.see(event)
            state = GAME.evolve(state, event)
            if isinstance(event, ev.DealCommitted):
                played = []
            elif isinstance(event, ev.TrickWon):
                played += event.cards
        conserved(state, played)
        check_views(state, rng)
    assert GAME.is_terminal(state), "the game never ended"
    assert min(referee.life) <= 0 < referee.rounds  # S9
    assert list(state.life) == referee.life
    return referee


GAMES_PER_SETUP = 250  # 1,000 games in all


@pytest.mark.parametrize("snake_lead", [True, False])
@pytest.mark.parametrize("players", [3, 4])
def test_random_complete_games_keep_every_invariant(players, snake_lead):
    first = players * 10_000 + snake_lead * 1_000
    seeds = range(first, first + GAMES_PER_SETUP)
    for_each_seed(seeds, lambda seed: play_random_game(players, seed, snake_lead))


def test_every_event_and_state_of_whole_bot_games_survives_the_codec_unchanged():
    for players in (3, 4):
        table, events = bot_table(GAME, ["basic"] * players)
        for index, done in enumerate(steps(table, random.Random(players))):
            table = done.table
            events += done.events
            if index % 7 == 0:  # a state in every phase, as the snapshot table holds it
                snapshot = json.loads(json.dumps(to_json(table.game)))
                assert from_json(GAME.state_type, snapshot) == table.game
        assert table.status == "finished"
        for event in events[1:]:  # the first is the table's own
            assert survives_storage(GAME, event), event
        folded = fold(GAME.evolve, GAME.new_game(players, GAME.options), events[1:])
        assert folded == table.game
