// Toutes les chaînes de la page en français : mêmes clés que text.en.js (un test le vérifie).

const rules = new Intl.PluralRules("fr");
const digits = new Intl.NumberFormat("fr");
const n = (x) => digits.format(x);
// « 0 point », « 1 point », « 2 points » : la catégorie CLDR choisit la forme.
const count = (x, one, other) => `${n(x)} ${rules.select(x) === "one" ? one : other}`;
const list = (items) => new Intl.ListFormat("fr", { type: "conjunction" }).format(items);
const orList = (items) => new Intl.ListFormat("fr", { type: "disjunction" }).format(items);

const OF_SUITS = { clover: "trèfle", cross: "croix", harp: "harpe", snake: "serpent",
  spades: "pique", hearts: "cœur", diamonds: "carreau", clubs: "trèfle" };
const COLOURS = { red: "rouge", yellow: "jaune", green: "vert", blue: "bleu" };
const SUITS = { ...OF_SUITS, ...COLOURS };
const FACES = { 11: "valet", 12: "dame", 13: "roi", 14: "as" };
const POKER = new Set(["spades", "hearts", "diamonds", "clubs"]);
// « 7 de trèfle », « 7 rouge », « dame de cœur ».
const card = (c) => {
  const rank = POKER.has(c.suit) && FACES[c.rank] ? FACES[c.rank] : n(c.rank);
  return COLOURS[c.suit] ? `${rank} ${COLOURS[c.suit]}` : `${rank} de ${OF_SUITS[c.suit] || c.suit}`;
};
// With its article: « le 7 rouge », « l'as de pique », « la dame de cœur ».
const the = (c) => {
  const name = card(c);
  if (POKER.has(c.suit) && c.rank === 14) return `l'${name}`;
  if (POKER.has(c.suit) && c.rank === 12) return `la ${name}`;
  return `le ${name}`;
};
const cards = (cs) => list(cs.map(card));
const cardsOrCount = (d) => (d.cards ? cards(d.cards) : count(d.count, "carte", "cartes"));

// The server names poker hands in English ("king-high flush"): said again in French.
const WORD = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  jack: "valet", queen: "dame", king: "roi", ace: "as" };
const rankWord = (w) => {
  const v = WORD[w.replace(/(e?s)$/, "")] ?? WORD[w.replace(/s$/, "")] ?? WORD[w];
  return v === undefined ? w : String(v);
};
const plural = (w) => {
  const r = rankWord(w);
  return /^\d+$/.test(r) ? r : `${r}s`.replace("ass", "as");
};
function hand(name) {
  let m;
  if ((m = name.match(/^(\w+)-high straight flush$/))) return `quinte flush hauteur ${rankWord(m[1])}`;
  if ((m = name.match(/^(\w+)-high flush$/))) return `couleur hauteur ${rankWord(m[1])}`;
  if ((m = name.match(/^(\w+)-high straight$/))) return `suite hauteur ${rankWord(m[1])}`;
  if ((m = name.match(/^four (\w+)$/))) return `carré de ${plural(m[1])}`;
  if ((m = name.match(/^full house, (\w+) over (\w+)$/))) return `full aux ${plural(m[1])} par les ${plural(m[2])}`;
  if ((m = name.match(/^three (\w+)$/))) return `brelan de ${plural(m[1])}`;
  if ((m = name.match(/^two pair, (\w+) and (\w+)$/))) return `deux paires, ${plural(m[1])} et ${plural(m[2])}`;
  if ((m = name.match(/^pair of (\w+)$/))) return `paire de ${plural(m[1])}`;
  if ((m = name.match(/^(\w+) high$/))) return `hauteur ${rankWord(m[1])}`;
  return name;
}

export default {
  "language.choose": "Langue",
  "nav.main": "Menu",
  "nav.lobby": "Salon",
  "nav.rules": "Règles",
  "nav.glossary": "Glossaire",
  "nav.api": "API",
  "count": n,
  "or": orList,

  "offline.banner": "Le serveur ne répond pas. Vos cartes sont bloquées jusqu'à son retour ; la page réessaie sans cesse.",
  "live.live": "en direct",
  "live.reconnecting": "reconnexion…",
  "live.offline": "hors ligne",

  "card": card,
  "cards": cards,
  "card.hidden": "une carte cachée",
  "ranks.face": (r) => ({ 11: "V", 12: "D", 13: "R", 14: "A" })[r],

  "game.st_patrick": "Saint Patrick",
  "game.ouroboros_trick": "Ouroboros Trick",
  "game.trick_and_snipers": "Trick & Snipers",
  "game.saint_poker": "Saint Poker",
  "about.st_patrick": "Prenez des reliques pour vous protéger des morsures de serpent des plis que vous remportez ; mais si les reliques sont toutes prises, elles vous maudissent. Gardez le plus de vie.",
  "about.ouroboros_trick": "Toute carte hors de la couleur demandée est un atout. Remporter un pli oblige à défausser autant de cartes que sa plus petite valeur. Ne tombez pas à court de cartes.",
  "about.trick_and_snipers": "Remportez un pli qui contient un 7, ou faites un snipe : jouez hors couleur une carte qui fait 13 avec la carte gagnante. Deux points de victoire gagnent.",
  "about.saint_poker": "Huit manches de mains de Texas hold'em bâties sur une rivière commune que vous alimentez vous-mêmes. La meilleure main de la manche r marque r points.",
  "option.first_lead_snake_allowed": "La première entame peut être un serpent (règle anglaise ; décochez pour la règle française)",
  "option.first_leader": "Premier joueur (numéro de place ; vide : tiré au sort)",
  "option.turn_seconds": "Secondes par tour (vide : pas de minuteur)",
  "option.max_timeouts": "Dépassements de temps d'affilée avant qu'un robot prenne la place",
  "option.rated": "Partie classée (compte pour le classement ; chaque place humaine doit être celle d'un joueur inscrit)",
  "option.other": (key) => key.replace(/_/g, " "),

  "phase.dealing": "distribution",
  "phase.finished": "partie terminée",
  "phase.st_patrick.choosing_pass_count": "choix du nombre de cartes à passer",
  "phase.st_patrick.passing": "passe de cartes",
  "phase.st_patrick.relics": "récupération des reliques",
  "phase.st_patrick.playing": "chasse aux serpents",
  "phase.st_patrick.scoring": "décompte",
  "phase.ouroboros_trick.playing": "jeu",
  "phase.ouroboros_trick.discarding": "défausse",
  "phase.trick_and_snipers.passing": "passe de cartes",
  "phase.trick_and_snipers.playing": "jeu",
  "phase.saint_poker.committing": "on alimente la rivière",
  "phase.saint_poker.revealing": "choix des deux cartes à révéler",
  "phase.saint_poker.scoring": "décompte",
  "phase.saint_poker.pickup": "reprise de cartes",

  "figure.life": (x) => count(x, "point de vie", "points de vie"),
  "figure.relics": (x) => count(x, "relique", "reliques"),
  "figure.bites": (x) => count(x, "morsure", "morsures"),
  "figure.tricks_won": (x) => count(x, "pli", "plis"),
  "figure.hand_count": (x) => count(x, "carte", "cartes"),
  "figure.pool_count": (x) => `${n(x)} en réserve`,
  "figure.victory_points": (x) => count(x, "point de victoire", "points de victoire"),
  "figure.points": (x) => count(x, "point", "points"),
  "figure.has_passed": "a passé",
  "figure.has_committed": "carte de rivière choisie",
  "figure.has_revealed": "cartes choisies",
  "fact.round": "manche",
  "fact.phase": "phase",
  "fact.relics_left": "reliques au centre",
  "fact.curses": "malédictions cette manche",
  "fact.special_hunt": "chasse spéciale",
  "fact.pass_count": "cartes à passer",
  "fact.pass_chooser": "nombre choisi par",
  "fact.trick": "pli",
  "fact.discard_pile": "défausse",
  "fact.discard_empty": "vide",
  "fact.discarding": "doit défausser",
  "fact.last_lowest": "plus petite valeur du dernier pli",
  "fact.last_point": "point du dernier pli",
  "fact.deck": "pioche",
  "fact.picking": "reprend une carte",
  "fact.pickup_order": "ordre de reprise",
  "yes": "oui",
  "none": "personne",
  "river.now": "Rivière",
  "river.next": "Rivière de la manche suivante",
  "river.next.none": "aucune (dernière manche)",
  "ranking.label": (r) => `Mains de la manche ${n(r)}`,
  "ranking.hand": (who, name, pts) => `${who} : ${name} (${pts >= 0 ? "+" : ""}${n(pts)})`,
  "seat.cards.face_up": "plis face visible (ils ont marqué)",
  "seat.cards.bites": "cartes à morsures",
  "private.passed_cards": "Vous avez passé",
  "private.received_cards": "Vous avez reçu",
  "private.pool": "Votre réserve",
  "private.committed_card": "Votre carte de rivière",
  "private.chosen_cards": "Vous révélez",

  "who.you": (name) => `${name || "Vous"} (vous)`, // « Ada (vous) joue… » : la 3e personne s'accorde
  "who.nobody": "personne",
  "who.bot": (seat) => `Robot ${n(seat)}`,
  "who.seat": (seat) => `Place ${n(seat)}`,
  "seat.kind.bot": (level) => `robot, ${({ random: "hasard", basic: "simple", strong: "fort" })[level] || level}`,
  "seat.kind.open": "place libre",
  "seat.kind.human": "joueur",
  "seat.you": "vous",
  "seat.to_act": "à jouer",

  "table.title": "Table",
  "table.round": (r) => `manche ${n(r)}`,
  "table.trick_area": "le pli",
  "table.state": "la table",
  "table.your_seat": "votre place",
  "table.hand": "votre main",
  "table.seats": "places",
  "table.log": "Ce qui s'est passé",
  "table.leave": "Quitter cette place",
  "table.leave.confirm": "Quitter cette place ? Un robot la jouera désormais.",
  "table.left": "Vous êtes parti ; un robot joue votre place.",
  "table.watching": "Vous regardez cette table.",
  "table.lost_seat": "Le jeton de cette place ne marche plus (la place a été quittée, ou son jeton remplacé). Vous regardez.",
  "table.how_to_play": (game) => `Comment jouer à ${game}`,
  "table.missing": "Cette table n'existe pas",
  "table.broken": "Cette table ne peut pas être affichée",
  "table.back": "Retour au salon",
  "table.share": "Envoyez à chaque ami le lien d'une place libre :",
  "table.share.seat": (seat) => `Place ${n(seat)} : `,
  "table.copy": "Copier",
  "trick.now": (k) => `Pli ${n(k)}`,
  "trick.last": (who) => `Dernier pli, remporté par ${who}`,
  "status.waiting": (open) => `En attente de ${count(open, "joueur", "joueurs")} de plus.`,
  "status.over": "Partie terminée.",
  "status.your_turn": (what) => `À vous : ${what}.`,
  "status.waiting_for": (names) => `On attend ${list(names)}.`,
  "status.busy": "Le donneur est occupé (décompte ou distribution)…",
  "countdown": (who, clock) => `${who} : ${clock}`,
  "picked": (k, of) => `${n(k)} sur ${n(of)} choisie${k > 1 ? "s" : ""}`,
  "number.invalid": (a, b) => `Choisissez un nombre entier de ${n(a)} à ${n(b)}.`,

  "prompt.play_card": () => "jouez une carte",
  "prompt.pass_cards": (t) => `choisissez ${count(t.count, "carte", "cartes")} à passer`,
  "prompt.discard": (t) => `choisissez ${count(t.count, "carte", "cartes")} à défausser`,
  "prompt.reveal_cards": (t) => `choisissez ${count(t.count, "carte", "cartes")} à révéler`,
  "prompt.commit_river_card": () => "choisissez une carte pour la rivière",
  "prompt.pick_up": () => "reprenez une carte sur la table",
  "prompt.take_relics": (t) => `prenez de ${n(t.min)} à ${n(t.max)} reliques`,
  "prompt.pass_relics": () => "ne prenez pas de relique",
  "prompt.choose_pass_count": (t) => `choisissez combien de cartes chacun passe (${n(t.min)} à ${n(t.max)})`,
  "prompt.other": (t) => t.type.replace(/_/g, " "),
  "button.pass_cards": "Passer",
  "button.discard": "Défausser",
  "button.reveal_cards": "Révéler",
  "button.take_relics": "Prendre",
  "button.pass_relics": "Ne rien prendre",
  "button.choose_pass_count": "Valider",
  "button.send": "Envoyer",
  "legal.one": (prompt, cs) => `${prompt} : ${orList(cs.map(card))}`,
  "legal.some": (prompt, cs) => `${prompt} parmi ${cards(cs)}`,
  "legal.or": " ; ou ",

  "problem.version-conflict": "La partie a avancé pendant votre choix ; voici la table telle qu'elle est.",
  "problem.illegal-action": (legal) => legal ? `Ce coup n'est pas permis maintenant. Vous pouvez : ${legal}.` : "Ce coup n'est pas permis maintenant : ce n'est pas votre tour.",
  "problem.game-finished": "La partie est terminée.",
  "problem.game-not-started": "La partie n'a pas commencé : elle attend des joueurs.",
  "problem.rate-limited": (s) => `Trop de requêtes : attendez ${count(s, "seconde", "secondes")}.`,
  "problem.unavailable": "Le serveur est occupé ou redémarre ; réessayez dans un instant.",
  "problem.network": "Le serveur ne répond pas ; vérifiez votre connexion.",
  "problem.unauthorized": "Le jeton de cette place n'est pas valable pour cette partie.",
  "problem.forbidden": "Ce lien d'invitation n'est pas valable pour cette place.",
  "problem.seat-taken": "Quelqu'un a déjà pris cette place.",
  "problem.not-found": "Cette table n'existe pas.",
  "problem.validation-error": "Le serveur a refusé ce que la page a envoyé (hors du format de l'API).",
  "problem.payload-too-large": "Ce que la page a envoyé était trop gros.",
  "problem.request-in-progress": "La même requête est encore en cours ; patientez un instant.",
  "problem.idempotency-key-reused": "Cette requête a déjà été envoyée avec un autre contenu.",
  "problem.other": (code) => `Le serveur a refusé (${code}).`,

  "result.won": (names) => `${list(names)} ${names.length > 1 ? "ont" : "a"} gagné.`,
  "result.nobody": "Personne n'a gagné.",
  "result.why": "Pourquoi",
  "result.replay": "Revoir cette partie",
  "round.summary": (r) => `Manche ${n(r)} : bilan`,
  "why.trick.highest": (who, c) => `${who} remporte le pli avec la plus forte carte de la couleur demandée, ${the(c)}.`,
  "why.trick.trump": (who, c) => `${who} remporte le pli avec le plus fort atout, ${the(c)} (une carte hors de la couleur demandée bat la couleur demandée).`,
  "why.trick.trump_tie": (who, c) => `${who} remporte le pli avec ${the(c)} : entre atouts égaux, le dernier joué gagne.`,
  "why.trick.snipe": (who, c, on) => `${who} a fait un snipe : ${the(c)} sur ${the(on)}, alors gagnant, fait 13.`,
  "why.trick.point_snipe": (who) => `Le point va à ${who}, le dernier sniper du pli, et non au gagnant du pli.`,
  "why.trick.point_seven": (who) => `Le pli contient un 7 et personne n'a fait de snipe : ${who}, son gagnant, marque le point.`,
  "why.trick.no_point": "Ni 7 ni snipe : le pli ne rapporte aucun point.",
  "why.trick.bites": (who, b) => b ? `${who} prend ${count(b, "morsure", "morsures")} (une par serpent ; les sept de croix et de harpe en valent 3 chacun).` : "Aucune morsure dedans.",
  "why.trick.discard": (who, k) => `Sa plus petite valeur est ${n(k)} : ${who} doit défausser ${count(k, "carte", "cartes")}.`,
  "why.stp.line": (who, b, r, change, life) =>
    `${who} : ${count(b, "morsure", "morsures")} − ${count(r, "relique", "reliques")} → ${change < 0 ? `perd ${n(-change)}` : change > 0 ? `gagne ${n(change)}` : "ne perd rien"}, ${count(life, "point de vie", "points de vie")}`,
  "why.stp.sacrifice": (who) => `Le grand sacrifice : ${who} a pris les 15 morsures, ne perd donc rien, et tous les autres perdent 3, quelles que soient leurs reliques.`,
  "why.stp.special": "La chasse spéciale : personne ne perd de vie ; qui n'a pas pris plus de morsures que de reliques gagne 1.",
  "why.stp.rule": "Vie perdue = morsures prises moins reliques détenues (jamais moins de 0).",
  "why.poker.line": (who, name, pts) => `${who} : ${name}, ${count(pts, "point", "points")}`,
  "why.poker.best": (r) => `La meilleure main marque le numéro de la manche : ${count(r, "point", "points")} à la manche ${n(r)}.`,
  "why.poker.tie": (r, k) => `${n(k)} meilleures mains égales se partagent les points de la manche ${n(r)}, arrondis au-dessus.`,
  "why.poker.pickup": (names) => `Ordre de reprise, pire main d'abord : ${list(names)}.`,
  "why.end.stp": "La partie s'arrête après une manche où la vie de quelqu'un est tombée à 0 ou moins ; la plus haute vie gagne.",
  "why.end.stp.tie_relics": (life) => `Égalité à ${count(life, "point de vie", "points de vie")} : on départage aux reliques détenues à la fin de la dernière manche.`,
  "why.end.stp.tie_snakes": "Encore à égalité de reliques : on départage ensuite aux cartes serpent dans les plis remportés à la dernière manche.",
  "why.end.stp.shared": "Toujours à égalité après les deux départages : la victoire est partagée.",
  "why.end.tas.reached": (who) => `${who} a atteint 2 points de victoire.`,
  "why.end.tas.out": "Les mains se sont vidées avant que quiconque atteigne 2 points de victoire : le plus de points de victoire gagne.",
  "why.end.tas.tie": (pts) => `Égalité à ${count(pts, "point de victoire", "points de victoire")} : on départage au plus grand nombre de plis remportés.`,
  "why.end.tas.shared": "Toujours à égalité de plis : la victoire est partagée.",
  "why.end.ouro": (names) => `${list(names)} ${names.length > 1 ? "sont tombés" : "est tombé"} à court de cartes (ni main ni réserve) et ${names.length > 1 ? "ont" : "a"} perdu ; tous les autres gagnent.`,
  "why.end.ouro.all": "Tous les joueurs sont tombés à court de cartes en même temps : tout le monde a perdu.",
  "why.end.poker": "Après 8 manches, le plus de points gagne.",
  "why.end.poker.shared": (pts) => `Égalité à ${count(pts, "point", "points")} : la victoire est partagée.`,

  "chart.life": "vie",
  "chart.points": "points",
  "chart.victory_points": "points de victoire",
  "chart.cards_left": "cartes restantes (main et réserve)",
  "chart.round": "manche",
  "chart.trick": "pli",
  "chart.title": (figure, axis) => `${figure} de chaque place par ${axis}`,
  "chart.caption": (figure, axis) => `${figure} par ${axis} (0 : le départ)`,
  "chart.legend": (name, value) => `${name} : ${n(value)}`,

  "lobby.title": "Prenez place à une table",
  "lobby.new": "Nouvelle table",
  "lobby.loading": "Chargement des jeux…",
  "lobby.mine": "Vos tables",
  "lobby.waiting": "Tables qui attendent des joueurs",
  "lobby.games": "Les jeux",
  "lobby.none_yet": "Aucune pour l'instant.",
  "lobby.none_now": "Aucune en ce moment.",
  "lobby.cannot_load": "Impossible de charger les jeux.",
  "lobby.game": "Jeu",
  "lobby.players": "Joueurs",
  "lobby.name": "Votre nom",
  "lobby.seats": "Places",
  "lobby.seat0": "Place 0 : vous",
  "lobby.seat": (seat) => `Place ${n(seat)}`,
  "lobby.bot": (level) => `robot (${({ random: "hasard", basic: "simple", strong: "fort" })[level] || level})`,
  "lobby.open": "libre : invitez un ami",
  "lobby.options": "Options",
  "lobby.create": "Créer la table",
  "lobby.not_created": (why) => `La table n'a pas été créée : ${why}`,
  "lobby.players_range": (a, b) => `${n(a)} à ${n(b)} joueurs`,
  "lobby.bots": (levels) => `robots : ${list(levels.map((l) => ({ random: "hasard", basic: "simple", strong: "fort" })[l] || l))}`,
  "lobby.how": (game) => `Comment jouer à ${game}`,
  "lobby.replay": "revoir",
  "lobby.seat_of": (seat) => `place ${n(seat)}`,
  "lobby.yours": "la vôtre",
  "lobby.needs_invite": "les places libres demandent un lien d'invitation",
  "status.waiting.short": "en attente",
  "status.active.short": "en cours",
  "status.finished.short": "terminée",
  "join.title": (seat) => `Prendre la place ${n(seat)}`,
  "join.held": "Ce navigateur détient déjà ",
  "join.held_link": (seat) => `la place ${n(seat)} à cette table`,
  "join.sit": "S'asseoir",

  "guide.title": (game) => `Comment jouer à ${game}`,
  "guide.all": "Règles",
  "guide.pick": "Choisissez un jeu :",
  "guide.loading": "Chargement des règles…",
  "guide.missing": "Ces règles ne peuvent pas être chargées.",
  "glossary.title": "Glossaire",
  "glossary.intro": "Les mots des quatre jeux, tels que ce site les emploie. À une table, chacun de ces mots s'explique quand on le survole, qu'on le touche ou qu'on y place le focus du clavier.",

  "replay.heading": "Revoir une partie",
  "replay.title": (game) => `Revoir : ${game}`,
  "replay.not_over": "Cette partie n'est pas finie : on pourra la revoir quand elle sera terminée.",
  "replay.to_table": "Aller à la table",
  "replay.first": "Début",
  "replay.back": "Reculer",
  "replay.forward": "Avancer",
  "replay.last": "Fin",
  "replay.version": "Version",
  "replay.of": (total) => `sur ${n(total)}`,
  "replay.go": "Aller",
  "replay.step": (v, total) => `Étape ${n(v)} sur ${n(total)}`,
  "replay.moves": "Toutes les étapes",
  "replay.share": "Lien vers cette étape",
  "replay.loading": "Chargement de la partie…",
  "replay.audit_raw": "Le rapport d'audit, tel que le serveur le donne",
  "verify.checking": "Vérification de la signature…",
  "verify.ok": "Vérifiée",
  "verify.bad": "Non vérifiée",
  "verify.ok.detail": "Le serveur a signé l'historique de cette partie (signature vérifiée ici, avec sa clé), et son propre audit a redécidé chaque coup à partir des donnes.",
  "verify.more": "Vérifier aussi chaque événement dans ce navigateur (télécharge tout le journal)",
  "verify.bad.detail": (what) => `Une vérification a échoué : ${what}.`,
  "verify.check.key": "l'identifiant de la clé correspond à la clé",
  "verify.check.chain": "le hachage de chaque événement s'enchaîne au précédent",
  "verify.check.head": "la tête recalculée est celle que donne l'audit",
  "verify.check.signature": "la signature Ed25519 de la tête est valide avec la clé du serveur",
  "verify.check.deals": "chaque donne correspond à l'engagement publié au moment de la donne",
  "verify.check.audit": "l'audit du serveur a redécidé chaque coup et retrouvé l'état qu'il détient",
  "verify.unsupported": "ce navigateur ne sait pas vérifier les signatures Ed25519",
  "verify.failed_load": "l'export, l'audit ou la clé n'a pas pu être chargé",

  "log.TableCreated": (d) => `Table créée : ${d.game_type} pour ${count(d.seats.length, "joueur", "joueurs")}.`,
  "log.SeatJoined": (d, who) => `${who(d.seat)} s'assoit à la place ${n(d.seat)}.`,
  "log.SeatLeft": (d, who) => `${who(d.seat)} est parti (${({ left: "de son choix", timeouts: "trop de dépassements de temps" })[d.reason] || d.reason}) ; un robot joue cette place.`,
  "log.TurnTimedOut": (d, who) => `${who(d.seat)} a dépassé son temps (${n(d.count)} fois d'affilée) ; le serveur a joué.`,
  "log.FixedDecksChosen": () => "Paquets de test choisis.",
  "log.DealCommitted": (d, who) => `Manche ${n(d.round)} distribuée (engagement de la donne ${d.commitment.slice(0, 12)}…)` +
    (d.first_leader === null || d.first_leader === undefined ? "." : ` ; ${who(d.first_leader)} commence.`),
  "log.HandDealt": (d, who) => `${who(d.seat)} reçoit ${cardsOrCount(d)}.`,
  "log.DeckSealed": (d) => (d.deck ? `Le paquet de la manche ${n(d.round)} est révélé.` : `Le paquet de la manche ${n(d.round)} est scellé.`),
  "log.PassCountAwaited": (d, who) => `${who(d.chooser)} a le moins de vie et choisit combien de cartes chacun passe.`,
  "log.PassCountSet": (d, who) => `${count(d.count, "carte", "cartes")} à passer` + (d.seat === null || d.seat === undefined ? "." : `, au choix de ${who(d.seat)}.`),
  "log.CardsPassed": (d, who) => `${who(d.seat)} passe ${cardsOrCount(d)}.`,
  "log.CardsReceived": (d, who) => `${who(d.seat)} reçoit ${cardsOrCount(d)} de ${who(d.from_seat)}.`,
  "log.HandPassed": (d, who) => `${who(d.seat)} reçoit ${cardsOrCount(d)} de ${who(d.from_seat)}.`,
  "log.RelicPhaseStarted": (d, who) => `Reliques : ${who(d.starter)} décide en premier.`,
  "log.RelicsTaken": (d, who) => `${who(d.seat)} prend ${count(d.count, "relique", "reliques")} (il en reste ${n(d.left)}).`,
  "log.RelicsDeclined": (d, who) => `${who(d.seat)} ne prend pas de relique.`,
  "log.RelicsCursed": (d, who) => `Les reliques sont toutes prises : malédiction ${n(d.curse)}. ${list(d.losses.map((l, s) => `${who(s)} −${n(l)}`).filter((_, s) => d.losses[s] > 0))} ; chaque main passe à gauche.`,
  "log.HuntStarted": (d, who) => `La chasse commence${d.special ? " (une chasse spéciale)" : ""} ; ${who(d.leader)} entame.`,
  "log.CardPlayed": (d, who) => `${who(d.seat)} joue ${the(d.card)}${d.snipe ? " : un snipe !" : "."}`,
  "log.TrickWon": (d, who) => {
    let text = `${who(d.seat)} remporte le pli`;
    if (d.bites) text += ` et ${count(d.bites, "morsure", "morsures")}`;
    if (d.point_to !== undefined && d.point_to !== null) text += ` ; ${who(d.point_to)} marque un point`;
    if (d.discard_count) text += ` ; doit défausser ${n(d.discard_count)}`;
    return `${text}.`;
  },
  "log.DiscardAwaited": (d, who) => `${who(d.seat)} doit défausser ${count(d.count, "carte", "cartes")}.`,
  "log.CardsDiscarded": (d, who) => `${who(d.seat)} défausse ${cardsOrCount(d)}${d.forced ? " (forcé : plus aucun choix)" : ""}.`,
  "log.PoolTaken": (d, who) => `La main de ${who(d.seat)} est vide : sa réserve devient sa nouvelle main (${cardsOrCount(d)}).`,
  "log.RoundStarted": (d) => `Manche ${n(d.round)} : la rivière commence avec ${d.river.length ? cards(d.river) : "aucune carte"}.`,
  "log.RiverCardCommitted": (d, who) => `${who(d.seat)} pose ${d.card ? the(d.card) : "une carte"} pour la rivière.`,
  "log.RiverCompleted": (d) => `La rivière est complète : ${cards(d.cards)}.`,
  "log.RevealChosen": (d, who) => `${who(d.seat)} choisit ${d.cards ? cards(d.cards) : "deux cartes"} à révéler.`,
  "log.CardsRevealed": (d, who) => `Révélées : ${d.cards.map((cs, seat) => `${who(seat)} ${cards(cs)}`).join(" ; ")}.`,
  "log.RoundScored": (d, who) => {
    if (d.life) return `Manche ${n(d.round)} décomptée : ${list(d.life.map((v, s) => `${who(s)} ${n(v)}`))} points de vie.`;
    if (d.points) return `Manche ${n(d.round)} décomptée : ${list(d.points.map((v, s) => `${who(s)} ${count(v, "point", "points")}`))}.`;
    return `Manche ${n(d.round)} décomptée.`;
  },
  "log.CardPickedUp": (d, who) => `${who(d.seat)} reprend ${the(d.card)}.`,
  "log.RoundEnded": (d) => `Fin de la manche ${n(d.round)}` + (d.discarded ? ` ; ${cards(d.discarded)} défaussées.` : "."),
  "log.GameEnded": (d, who) => d.winners.length ? `Partie terminée : ${list(d.winners.map(who))} ${d.winners.length > 1 ? "ont" : "a"} gagné.` : "Partie terminée : personne n'a gagné.",
  "log.other": (type) => `${type.replace(/([a-z])([A-Z])/g, "$1 $2")}.`,

  "hand": hand,
};
