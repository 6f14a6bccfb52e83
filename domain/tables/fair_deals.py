"""A seeded table's deals (G6): each derived from the table's seeds
(domain/shared/deal_derivation.py), and what makes them fair: a human's seed given after the server
committed to its own."""

from __future__ import annotations

from domain.kit.decider import Deal
from domain.shared.deal_derivation import derive_deal
from domain.tables import table as tables


def seeded_deal(table: tables.Table, game_id: str) -> Deal:
    """The deal the table waits for, derived from its seeds, the game and the deal's round (the
    k-th deal is round k). A fixed test deck replaces the derived deck; the salt and the first
    leader are still derived."""
    seeds, cards = table.seeds, tables.pending_deal(table)
    if seeds is None or seeds.server_seed is None or cards is None:
        raise ValueError("the table has no seeds to derive a deal from, or waits for no deal")
    client_seeds = [None if seed is None else seed.seed for seed in seeds.client_seeds]
    derived = derive_deal(seeds.server_seed, client_seeds, game_id, table.deals_made + 1, cards)
    fixed = tables.next_fixed_deck(table)
    deck = derived.deck if fixed is None else tuple(fixed)
    return Deal(deck=deck, salt=derived.salt, first_leader=derived.first_leader)


def fair_seats(table: tables.Table) -> tuple[int, ...]:
    """Seats whose player gave its seed after the server's commitment."""
    if table.seeds is None:
        return ()
    return tuple(seat for seat, after in enumerate(table.seeds.after_commitment) if after)


def deals_fair(table: tables.Table) -> bool:
    """Whether the server could not have chosen the table's deals by itself: it committed to its
    seed before the table was created, at least one seat's player gave a seed after that, and
    no deal was a fixed test deck. (That each deal is the derived one is the audit's to check.)"""
    seeds = table.seeds
    if seeds is None or not seeds.committed_in_advance or table.fixed_decks:
        return False
    return bool(fair_seats(table))
