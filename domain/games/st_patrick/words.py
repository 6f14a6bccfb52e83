"""What a client says of St Patrick, in each language: its name, its phases, the figures by each
seat, the facts of its table, its actions, its log lines and why things went as they did (GET
/game-types publishes them; placeholders as docs/frontend.md's "A game's words" says)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "game.name": "St Patrick",
        "game.about": "Take relics to shield yourself from the snake bites in the tricks you"
        " win, but if the relics run out, they curse you. Keep the most life.",
        "option.first_lead_snake_allowed": "The first lead may be a snake (English rulebook;"
        " untick for the French one)",
        "phase.choosing_pass_count": "choosing how many cards to pass",
        "phase.passing": "passing cards",
        "phase.relics": "taking relics",
        "phase.playing": "snake hunt",
        "phase.scoring": "scoring",
        "figure.life": "{0} life",
        "figure.relics": "{0} {0|relic|relics}",
        "figure.bites": "{0} {0|bite|bites}",
        "fact.relics_left": "relics in the middle",
        "fact.curses": "curses this round",
        "fact.special_hunt": "special hunt",
        "fact.pass_count": "cards to pass",
        "fact.pass_chooser": "pass count chosen by",
        "seat.cards.bites": "bite cards",
        "prompt.take_relics": "take {min}–{max} relics",
        "prompt.pass_relics": "pass on the relics",
        "prompt.choose_pass_count": "choose how many cards everyone passes ({min}–{max})",
        "button.take_relics": "Take relics",
        "button.pass_relics": "Take no relics",
        "button.choose_pass_count": "Set pass count",
        "why.trick.bites": "{0} takes {1} {1|bite|bites} (one per snake; the sevens of cross and"
        " of harp are worth 3 each).",
        "why.trick.no_bite": "No bite in it.",
        "why.stp.line": "{0}: {1} {1|bite|bites} − {2} {2|relic|relics} → {3}, {4} life",
        "why.stp.loses": "loses {0}",
        "why.stp.gains": "gains {0}",
        "why.stp.unchanged": "loses nothing",
        "why.stp.sacrifice": "The big sacrifice: {0} took all 15 bites, so loses nothing, and"
        " everyone else loses 3 whatever their relics.",
        "why.stp.special": "The special hunt: nobody loses life; whoever took no more bites than"
        " they hold relics gains 1.",
        "why.stp.rule": "Life lost = bites taken minus relics held (never below 0).",
        "why.end.stp": "The game ends after a round in which someone's life fell to 0 or below;"
        " the highest life wins.",
        "why.end.stp.tie_relics": "Tied at {0} life: the tiebreak is relics held at the end of"
        " the last round.",
        "why.end.stp.tie_snakes": "Still tied on relics: the next tiebreak is snake cards among"
        " the tricks won in the last round.",
        "why.end.stp.shared": "Still tied after both tiebreaks: the victory is shared.",
        "chart.life": "life",
        "log.PassCountAwaited": "{chooser:who} has the lowest life and chooses how many cards"
        " everyone passes.",
        "log.PassCountSet": "{count} {count|card|cards} to pass.",
        "log.PassCountSet.chosen": "{count} {count|card|cards} to pass, chosen by {seat:who}.",
        "log.HandPassed": "{seat:who} received {0:cards.seen} from {from_seat:who}.",
        "log.RelicPhaseStarted": "Relics: {starter:who} decides first.",
        "log.RelicsTaken": "{seat:who} took {count} {count|relic|relics} ({left} left).",
        "log.RelicsDeclined": "{seat:who} took no relics.",
        "log.RelicsCursed": "The relics ran out: curse {curse}. {losses}; every hand goes to the"
        " left.",
        "log.RelicsCursed.loss": "{0} −{1} life",
        "log.HuntStarted": "The hunt begins; {leader:who} leads.",
        "log.HuntStarted.special": "The hunt begins (a special hunt); {leader:who} leads.",
        "log.TrickWon.bites": "{seat:who} won the trick and {bites} {bites|bite|bites}.",
        "log.RoundScored": "Round {round} scored: {lives}.",
        "log.RoundScored.life": "{0} {1} life",
    },
    "fr": {
        "game.name": "Saint Patrick",
        "game.about": "Prenez des reliques pour vous protéger des morsures de serpent des plis"
        " que vous remportez ; mais si les reliques sont toutes prises, elles vous maudissent."
        " Gardez le plus de vie.",
        "option.first_lead_snake_allowed": "La première entame peut être un serpent (règle"
        " anglaise ; décochez pour la règle française)",
        "phase.choosing_pass_count": "choix du nombre de cartes à passer",
        "phase.passing": "passe de cartes",
        "phase.relics": "récupération des reliques",
        "phase.playing": "chasse aux serpents",
        "phase.scoring": "décompte",
        "figure.life": "{0} {0|point de vie|points de vie}",
        "figure.relics": "{0} {0|relique|reliques}",
        "figure.bites": "{0} {0|morsure|morsures}",
        "fact.relics_left": "reliques au centre",
        "fact.curses": "malédictions cette manche",
        "fact.special_hunt": "chasse spéciale",
        "fact.pass_count": "cartes à passer",
        "fact.pass_chooser": "nombre choisi par",
        "seat.cards.bites": "cartes à morsures",
        "prompt.take_relics": "prenez de {min} à {max} reliques",
        "prompt.pass_relics": "ne prenez pas de relique",
        "prompt.choose_pass_count": "choisissez combien de cartes chacun passe ({min} à {max})",
        "button.take_relics": "Prendre",
        "button.pass_relics": "Ne rien prendre",
        "button.choose_pass_count": "Valider",
        "why.trick.bites": "{0} prend {1} {1|morsure|morsures} (une par serpent ; les sept de"
        " croix et de harpe en valent 3 chacun).",
        "why.trick.no_bite": "Aucune morsure dedans.",
        "why.stp.line": "{0} : {1} {1|morsure|morsures} − {2} {2|relique|reliques} → {3},"
        " {4} {4|point de vie|points de vie}",
        "why.stp.loses": "perd {0}",
        "why.stp.gains": "gagne {0}",
        "why.stp.unchanged": "ne perd rien",
        "why.stp.sacrifice": "Le grand sacrifice : {0} a pris les 15 morsures, ne perd donc"
        " rien, et tous les autres perdent 3, quelles que soient leurs reliques.",
        "why.stp.special": "La chasse spéciale : personne ne perd de vie ; qui n'a pas pris plus"
        " de morsures que de reliques gagne 1.",
        "why.stp.rule": "Vie perdue = morsures prises moins reliques détenues (jamais moins de 0).",
        "why.end.stp": "La partie s'arrête après une manche où la vie de quelqu'un est tombée à"
        " 0 ou moins ; la plus haute vie gagne.",
        "why.end.stp.tie_relics": "Égalité à {0} {0|point de vie|points de vie} : on départage"
        " aux reliques détenues à la fin de la dernière manche.",
        "why.end.stp.tie_snakes": "Encore à égalité de reliques : on départage ensuite aux"
        " cartes serpent dans les plis remportés à la dernière manche.",
        "why.end.stp.shared": "Toujours à égalité après les deux départages : la victoire est"
        " partagée.",
        "chart.life": "vie",
        "log.PassCountAwaited": "{chooser:who} a le moins de vie et choisit combien de cartes"
        " chacun passe.",
        "log.PassCountSet": "{count} {count|carte|cartes} à passer.",
        "log.PassCountSet.chosen": "{count} {count|carte|cartes} à passer, au choix de {seat:who}.",
        "log.HandPassed": "{seat:who} reçoit {0:cards.seen} de {from_seat:who}.",
        "log.RelicPhaseStarted": "Reliques : {starter:who} décide en premier.",
        "log.RelicsTaken": "{seat:who} prend {count} {count|relique|reliques} (il en reste"
        " {left}).",
        "log.RelicsDeclined": "{seat:who} ne prend pas de relique.",
        "log.RelicsCursed": "Les reliques sont toutes prises : malédiction {curse}. {losses} ;"
        " chaque main passe à gauche.",
        "log.RelicsCursed.loss": "{0} −{1}",
        "log.HuntStarted": "La chasse commence ; {leader:who} entame.",
        "log.HuntStarted.special": "La chasse commence (une chasse spéciale) ; {leader:who}"
        " entame.",
        "log.TrickWon.bites": "{seat:who} remporte le pli et {bites} {bites|morsure|morsures}.",
        "log.RoundScored": "Manche {round} décomptée : {lives} points de vie.",
        "log.RoundScored.life": "{0} {1}",
    },
}
