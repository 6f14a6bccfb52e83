"""What a client says of Trick & Snipers, in each language: its name, its phases, its figures,
its snipes and points, and why a trick or the game went as it did (GET /game-types publishes
them; placeholders as docs/frontend.md's "A game's words" says)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "game.name": "Trick & Snipers",
        "game.about": "Win a trick holding a 7, or snipe: play off-suit a card that makes 13"
        " with the winning card. Two victory points win.",
        "phase.passing": "passing cards",
        "phase.playing": "playing",
        "figure.victory_points": "{0} {0|victory point|victory points}",
        "fact.last_point": "last trick's point",
        "seat.cards.face_up": "face-up tricks (they scored)",
        "why.trick.snipe": "{0} sniped: the {1:card} on the {2:card}, winning then, makes 13.",
        "why.trick.point_snipe": "The point goes to {0}, the last sniper of the trick, not to"
        " the trick's winner.",
        "why.trick.point_seven": "The trick holds a 7 and nobody sniped: {0}, its winner,"
        " scores the point.",
        "why.trick.no_point": "No 7 and no snipe in it: the trick scores no point.",
        "why.end.tas.reached": "{0} reached 2 victory points.",
        "why.end.tas.out": "The hands ran out before anyone reached 2 victory points: the most"
        " victory points wins.",
        "why.end.tas.tie": "Tied at {0} {0|victory point|victory points}: the tiebreak is the"
        " most tricks won.",
        "why.end.tas.shared": "Still tied on tricks won: the victory is shared.",
        "chart.victory_points": "victory points",
        "log.CardPlayed.snipe": "{seat:who} played the {card:card}: a snipe!",
        "log.TrickWon.point": "{seat:who} won the trick; {point_to:who} scores a point.",
    },
    "fr": {
        "game.name": "Trick & Snipers",
        "game.about": "Remportez un pli qui contient un 7, ou faites un snipe : jouez hors"
        " couleur une carte qui fait 13 avec la carte gagnante. Deux points de victoire"
        " gagnent.",
        "phase.passing": "passe de cartes",
        "phase.playing": "jeu",
        "figure.victory_points": "{0} {0|point de victoire|points de victoire}",
        "fact.last_point": "point du dernier pli",
        "seat.cards.face_up": "plis face visible (ils ont marqué)",
        "why.trick.snipe": "{0} a fait un snipe : {1:card.the} sur {2:card.the}, alors gagnant,"
        " fait 13.",
        "why.trick.point_snipe": "Le point va à {0}, le dernier sniper du pli, et non au gagnant"
        " du pli.",
        "why.trick.point_seven": "Le pli contient un 7 et personne n'a fait de snipe : {0}, son"
        " gagnant, marque le point.",
        "why.trick.no_point": "Ni 7 ni snipe : le pli ne rapporte aucun point.",
        "why.end.tas.reached": "{0} a atteint 2 points de victoire.",
        "why.end.tas.out": "Les mains se sont vidées avant que quiconque atteigne 2 points de"
        " victoire : le plus de points de victoire gagne.",
        "why.end.tas.tie": "Égalité à {0} {0|point de victoire|points de victoire} : on"
        " départage au plus grand nombre de plis remportés.",
        "why.end.tas.shared": "Toujours à égalité de plis : la victoire est partagée.",
        "chart.victory_points": "points de victoire",
        "log.CardPlayed.snipe": "{seat:who} joue {card:card.the} : un snipe !",
        "log.TrickWon.point": "{seat:who} remporte le pli ; {point_to:who} marque un point.",
    },
}
