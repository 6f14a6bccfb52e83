"""What a game module gives the rest of the service: its Decider plus its public description."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from domain.kit.budget import Budget
from domain.kit.cards import Card
from domain.kit.decider import Command, Event
from domain.kit.outcome import GameEnded
from domain.kit.ranking import Ranks, winners_first


class Rng(Protocol):
    """The seeded generator a bot is handed (the domain never makes randomness of its own)."""

    def random(self) -> float: ...
    def choice(self, seq: Sequence[Any]) -> Any: ...
    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...
    def randint(self, a: int, b: int) -> int: ...


class Bot(Protocol):
    """A bot: (the seat's own view, exactly as the API shows it, a generator, and for a bot that
    searches, how long it may think) -> an API action dict. Bots that do not search ignore the
    budget; a searching bot handed none uses its own default number of iterations."""

    def __call__(
        self, view: dict[str, Any], rng: Rng, budget: Budget | None = None
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ActionAbout:
    """What the API's description says of one of a game's actions beyond its command's fields
    (api/spec_parts.py): a sentence for a reader, and per field of cards or of a count the
    least and the most it may be."""

    text: str = ""
    limits: Mapping[str, tuple[int, int]] = field(default_factory=dict)


def no_option_schemas(players: int) -> Mapping[str, Mapping[str, Any]]:
    return {}


@dataclass(frozen=True)
class GameType:
    """Built by `domain.kit.build.build_game` from a game's own parts."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: Mapping[str, Any]
    """The game's own options with their defaults (e.g. {"first_leader": None})."""
    commands: Mapping[str, type[Command]]
    """API action type -> command class; its fields are `seat` plus the action's fields."""
    events: Mapping[str, type[Event]]
    """Event type name (the class name) -> class, to rebuild stored events."""
    check_options: Callable[[int, Mapping[str, Any]], None]
    """(players, options with defaults filled) -> None, or raises InvalidSetup."""
    new_game: Callable[[int, Mapping[str, Any]], Any]
    """(players, options) -> the state before the first deal."""
    cards_to_deal: Callable[[Any], tuple[Card, ...] | None]
    """The deck (unshuffled) when the game waits for a deal, else None."""
    decide: Callable[[Any, Command], list[Event]]
    evolve: Callable[[Any, Event], Any]
    is_terminal: Callable[[Any], bool]
    to_act: Callable[[Any], tuple[int, ...]]
    legal_actions: Callable[[Any, int], list[dict[str, Any]]]
    view: Callable[[Any, int | None], dict[str, Any]]
    """Keys: round, phase, to_act, seats (a list of public per-seat figures incl. hand_count),
    any public table state, `you` for a seat (hand, legal_actions, private figures), and `result`
    ({"winners", "losers", "final"}) once terminal."""
    bots: Mapping[str, Bot]
    """Bot level -> bot, in the order the API lists the levels."""
    automatic: Callable[[Any], str | None] = lambda state: None
    """Work the workers must do with no seat acting (e.g. "scoring"), or None."""
    revealed_at_end: Callable[[Any], dict[str, Any]] = lambda state: {}
    """(state) -> the table's own secrets the end of the game makes public, as they stand in
    that state (e.g. cards never dealt): what a finished game's view adds, and what its replay
    shows at every version."""
    state_type: type | None = None
    """The game's state dataclass, to rebuild snapshots (None: no snapshots for this game)."""
    choices: Mapping[str, str] = field(default_factory=dict)
    """Event type name -> the API action type whose command it records, for the events a seat's
    action emits first: an audit rebuilds the command from the event's fields of the same names
    (domain/kit/origins.py, events/audit/redecide.py)."""
    ranking: Callable[[GameEnded, int], Ranks] = winners_first
    """(the game's end, players) -> each seat's place for ratings (domain/kit/ranking.py): the
    game's own final order and tiebreaks; by default the winners first, the rest tied."""
    cards: tuple[Card, ...] = ()
    """Every card the game deals at any table size: what a card of this game may be (the API's
    validation of suits and ranks is derived from the registered games' cards)."""
    actions_about: Mapping[str, ActionAbout] = field(default_factory=dict)
    """API action type -> what the API's description says of it (none: its fields alone)."""
    option_schemas: Callable[[int], Mapping[str, Mapping[str, Any]]] = no_option_schemas
    """(players) -> the JSON Schema of each of the game's own options at that table size, for
    the API's description; the checks themselves are `check_options`."""
    figures: tuple[tuple[str, str], ...] = ()
    """The public per-seat figures of the view a reader looks at first, in reading order, each
    (field, glossary term): what a client shows by each seat (GET /game-types)."""
    chart: tuple[str, str] | None = None
    """(figure, axis) of the result chart a client may draw from the log, or None: no chart."""
    face_ranks: tuple[int, ...] = ()
    """The ranks shown as a letter (jack, queen, king, ace) rather than a number."""
    guide: str = ""
    """How to play, in Markdown: the rules page of a game whose folder holds no guide file
    (`guide.<lang>.md`, found through `package`)."""
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The game's own words, language -> key -> text (its folder's `words.py`): what a client
    says of it (its name, phases, figures, log lines, explanations), published by GET
    /game-types. A text may hold placeholders (docs/frontend.md, "A game's words")."""
    package: str = ""
    """The Python package of the game's folder (its `__name__`): where its guides
    (`guide.en.md`, `guide.fr.md`) are read from; "" for a game with no folder of its own."""

    @property
    def action_types(self) -> tuple[str, ...]:
        return tuple(self.commands)

    @property
    def bot_levels(self) -> tuple[str, ...]:
        return tuple(self.bots)

    @cached_property
    def suits(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(card.suit for card in self.cards))

    @cached_property
    def ranks(self) -> tuple[int, ...]:
        return tuple(sorted({card.rank for card in self.cards}))
