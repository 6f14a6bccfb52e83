"""The one way a game becomes a `GameType`: its own parts in, the shared defaults filled in.

A game's folder gives its rules module (decide, evolve), its state (a dataclass satisfying
`domain.kit.game_state.GameState`, a `new_state` and a `deck_for` per table size, `to_act`), its
view module (view, legal_actions), its commands and events, its better bots, and what a
client says and shows of it (its `words.py`, its `guide.<lang>.md` files); `build_game` adds
what every game does alike: the random bot, the player-count check, `new_game`,
`cards_to_deal` in the phase "dealing", `is_terminal` in the phase "finished", the cards the
API accepts, and each legal-action template's `send` (domain/kit/templates.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from domain.kit.cards import Card
from domain.kit.decider import Command, Event
from domain.kit.dispatch import Evolver
from domain.kit.game_state import DEALING, GameState, is_finished
from domain.kit.game_type import ActionAbout, Bot, GameType, no_option_schemas
from domain.kit.options import check_players
from domain.kit.outcome import GameEnded
from domain.kit.ranking import Ranks, winners_first
from domain.kit.templates import random_bot, with_send

Options = Mapping[str, Any]
DeckFor = Callable[[int], tuple[Card, ...]]


class Rules(Protocol):
    """A game's rules module: its Decider."""

    def decide(self, state: Any, command: Command) -> list[Event]: ...

    @property
    def evolve(self) -> Evolver[Any]: ...


class Views(Protocol):
    """A game's view module: what a seat (or a spectator, seat None) may see, and do."""

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]: ...

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]: ...


def no_options(players: int, options: Options) -> None:
    """The check of a game with no options of its own."""


def no_automatic_work(state: Any) -> str | None:
    return None


def nothing_revealed_at_end(state: Any) -> dict[str, Any]:
    """The end reveals of a game whose every card is in some hand, pool or trick."""
    return {}


def build_game(
    *,
    id: str,
    name: str,
    table_sizes: Iterable[int],
    options: Options,
    state_type: type,
    new_state: Callable[[int, Options], GameState],
    deck_for: DeckFor,
    commands: Mapping[str, type[Command]],
    events: Iterable[type[Event]],
    choices: Mapping[str, str],
    rules: Rules,
    views: Views,
    to_act: Callable[[Any], tuple[int, ...]],
    bots: Mapping[str, Bot],
    check_options: Callable[[int, Options], None] = no_options,
    automatic: Callable[[Any], str | None] = no_automatic_work,
    revealed_at_end: Callable[[Any], dict[str, Any]] = nothing_revealed_at_end,
    ranking: Callable[[GameEnded, int], Ranks] = winners_first,
    actions_about: Mapping[str, ActionAbout] | None = None,
    option_schemas: Callable[[int], Mapping[str, Mapping[str, Any]]] = no_option_schemas,
    figures: tuple[tuple[str, str], ...] = (("hand_count", "hand"),),
    chart: tuple[str, str] | None = None,
    face_ranks: tuple[int, ...] = (),
    guide: str = "",
    words: Mapping[str, Mapping[str, str]] | None = None,
    package: str = "",
) -> GameType:
    """`options`: the game's own, with defaults; `check_options` checks them (players come
    checked); `new_state(players, options with defaults)`: the state before the first deal;
    `deck_for(players)`: the unshuffled deck; `bots`: the levels beyond "random", in order;
    `choices`: event name -> the action it records (GameType.choices); `actions_about` and
    `option_schemas`: what the API's description says of the actions and options;
    `revealed_at_end`: the table's secrets the end makes public (GameType); `figures`,
    `chart`, `face_ranks`, `words` and `guide`: what a client shows of it; `package`: the game's
    folder, where its guide files are (GameType)."""
    sizes = sorted(table_sizes)
    event_types = tuple(events)
    _check_evolve_knows(id, rules.evolve, event_types)

    def check(players: int, given: Options) -> None:
        check_players(name, players, sizes[0], sizes[-1])
        check_options(players, given)

    def new_game(players: int, given: Options) -> GameState:
        with_defaults = {**options, **given}
        check(players, with_defaults)
        return new_state(players, with_defaults)

    def cards_to_deal(state: GameState) -> tuple[Card, ...] | None:
        return deck_for(state.players) if state.phase == DEALING else None

    def legal_actions(state: Any, seat: int) -> list[dict[str, Any]]:
        return with_send(views.legal_actions(state, seat))  # as the view's `you` shows them

    return GameType(
        id=id,
        name=name,
        min_players=sizes[0],
        max_players=sizes[-1],
        options=options,
        commands=commands,
        events={cls.__name__: cls for cls in event_types},
        check_options=check,
        new_game=new_game,
        cards_to_deal=cards_to_deal,
        decide=rules.decide,
        evolve=rules.evolve,
        is_terminal=is_finished,
        to_act=to_act,
        legal_actions=legal_actions,
        view=views.view,
        bots={"random": random_bot, **bots},
        automatic=automatic,
        revealed_at_end=revealed_at_end,
        ranking=ranking,
        state_type=state_type,
        choices=choices,
        cards=every_card(deck_for, sizes),
        actions_about=actions_about or {},
        option_schemas=option_schemas,
        figures=figures,
        chart=chart,
        face_ranks=face_ranks,
        guide=guide,
        words=words or {},
        package=package,
    )


def every_card(deck_for: DeckFor, sizes: Iterable[int]) -> tuple[Card, ...]:
    """The union of the decks of every table size, in order of first appearance."""
    return tuple(dict.fromkeys(card for players in sizes for card in deck_for(players)))


def _check_evolve_knows(
    game_id: str, evolve: Evolver[Any], events: tuple[type[Event], ...]
) -> None:
    """A game's event its evolve neither records nor ignores would fail on the first fold: fail
    at registration instead."""
    missing = sorted(cls.__name__ for cls in events if cls not in evolve.known)
    if missing:
        raise TypeError(f"{game_id}: evolve knows nothing of {', '.join(missing)}")
