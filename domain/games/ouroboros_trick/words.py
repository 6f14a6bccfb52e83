"""What a client says of Ouroboros Trick, in each language: its name, its phases, the pool and
the discard pile, its trumps and discards, and why a trick or the game went as it did (GET
/game-types publishes them; placeholders as docs/frontend.md's "A game's words" says)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "game.name": "Ouroboros Trick",
        "game.about": "Every card not of the led suit is a trump. Win a trick and you must"
        " discard as many cards as its lowest rank. Do not run out of cards.",
        "phase.playing": "playing",
        "phase.discarding": "discarding",
        "figure.pool_count": "{0} in pool",
        "fact.discard_pile": "discard pile",
        "fact.discard_empty": "empty",
        "fact.discarding": "must discard",
        "fact.last_lowest": "last trick's lowest rank",
        "private.pool": "Your pool",
        "prompt.discard": "choose {count} {count|card|cards} to discard",
        "button.discard": "Discard",
        "why.trick.trump": "{0} won the trick with the highest trump, the {1:card} (a card not"
        " of the led suit beats the led suit).",
        "why.trick.trump_tie": "{0} won the trick with the {1:card}: of equal trumps, the one"
        " played last wins.",
        "why.trick.discard": "Its lowest rank is {1}: {0} must discard {1} {1|card|cards}.",
        "why.end.ouro": "{0} ran out of cards (no hand and an empty pool) and lost; everyone"
        " else wins.",
        "why.end.ouro.all": "Every player ran out of cards at once: everyone lost.",
        "chart.cards_left": "cards left (hand and pool)",
        "log.TrickWon.discard": "{seat:who} won the trick; must discard {discard_count}.",
        "log.DiscardAwaited": "{seat:who} must discard {count} {count|card|cards}.",
        "log.CardsDiscarded": "{seat:who} discarded {0:cards.seen}.",
        "log.CardsDiscarded.forced": "{seat:who} discarded {0:cards.seen} (forced: no choice"
        " was left).",
        "log.PoolTaken": "{seat:who}'s hand was empty: the pool becomes the new hand"
        " ({0:cards.seen}).",
    },
    "fr": {
        "game.name": "Ouroboros Trick",
        "game.about": "Toute carte hors de la couleur demandée est un atout. Remporter un pli"
        " oblige à défausser autant de cartes que sa plus petite valeur. Ne tombez pas à court"
        " de cartes.",
        "phase.playing": "jeu",
        "phase.discarding": "défausse",
        "figure.pool_count": "{0} en réserve",
        "fact.discard_pile": "défausse",
        "fact.discard_empty": "vide",
        "fact.discarding": "doit défausser",
        "fact.last_lowest": "plus petite valeur du dernier pli",
        "private.pool": "Votre réserve",
        "prompt.discard": "choisissez {count} {count|carte|cartes} à défausser",
        "button.discard": "Défausser",
        "why.trick.trump": "{0} remporte le pli avec le plus fort atout, {1:card.the} (une carte"
        " hors de la couleur demandée bat la couleur demandée).",
        "why.trick.trump_tie": "{0} remporte le pli avec {1:card.the} : entre atouts égaux, le"
        " dernier joué gagne.",
        "why.trick.discard": "Sa plus petite valeur est {1} : {0} doit défausser {1}"
        " {1|carte|cartes}.",
        "why.end.ouro": "{0} {0|est tombé|sont tombés} à court de cartes (ni main ni réserve)"
        " et {0|a|ont} perdu ; tous les autres gagnent.",
        "why.end.ouro.all": "Tous les joueurs sont tombés à court de cartes en même temps :"
        " tout le monde a perdu.",
        "chart.cards_left": "cartes restantes (main et réserve)",
        "log.TrickWon.discard": "{seat:who} remporte le pli ; doit défausser {discard_count}.",
        "log.DiscardAwaited": "{seat:who} doit défausser {count} {count|carte|cartes}.",
        "log.CardsDiscarded": "{seat:who} défausse {0:cards.seen}.",
        "log.CardsDiscarded.forced": "{seat:who} défausse {0:cards.seen} (forcé : plus aucun"
        " choix).",
        "log.PoolTaken": "La main de {seat:who} est vide : sa réserve devient sa nouvelle main"
        " ({0:cards.seen}).",
    },
}
