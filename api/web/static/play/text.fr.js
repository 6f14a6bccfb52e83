// Toutes les chaînes de la page en français qui ne sont d'aucun jeu en particulier (les mots de
// chaque jeu viennent de son dossier : GET /game-types) : mêmes clés que text.en.js (un test le
// vérifie).

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
  "nav.tables": "Mes tables",
  "nav.leaderboard": "Classements",
  "nav.who": (name) => `Vous : ${name}`,
  "nav.no_player": "Votre joueur",
  "count": n,
  "or": orList,
  "list": list,

  "offline.banner": "Le serveur ne répond pas. Vos cartes sont bloquées jusqu'à son retour ; la page réessaie sans cesse.",
  "live.live": "en direct",
  "live.reconnecting": "reconnexion…",
  "live.offline": "hors ligne",

  "card": card,
  "cards": cards,
  "card.the": the,
  "cards.seen": cardsOrCount,
  "card.hidden": "une carte cachée",
  "ranks.face": (r) => ({ 11: "V", 12: "D", 13: "R", 14: "A" })[r],

  "option.first_leader": "Premier joueur (numéro de place ; vide : tiré au sort)",
  "option.turn_seconds": "Secondes par tour (vide : pas de minuteur)",
  "option.max_timeouts": "Dépassements de temps d'affilée avant qu'un robot prenne la place",
  "option.rated": "Partie classée (compte pour le classement ; chaque place humaine doit être celle d'un joueur inscrit)",
  "option.other": (key) => key.replace(/_/g, " "),

  "phase.dealing": "distribution",
  "phase.finished": "partie terminée",

  "figure.tricks_won": (x) => count(x, "pli", "plis"),
  "figure.hand_count": (x) => count(x, "carte", "cartes"),
  "figure.has_passed": "a passé",
  "fact.round": "manche",
  "fact.phase": "phase",
  "fact.trick": "pli",
  "yes": "oui",
  "none": "personne",
  "private.passed_cards": "Vous avez passé",
  "private.received_cards": "Vous avez reçu",

  "who.you": (name) => `${name || "Vous"} (vous)`, // « Ada (vous) joue… » : la 3e personne s'accorde
  "who.nobody": "personne",
  "who.bot": (seat) => `Robot ${n(seat)}`,
  "who.seat": (seat) => `Place ${n(seat)}`,
  "seat.kind.bot": (level) => `robot, ${({ random: "hasard", basic: "simple", strong: "fort" })[level] || level}`,
  "seat.kind.open": "place libre",
  "seat.kind.human": "joueur",
  "seat.you": "vous",
  "seat.to_act": "à jouer",
  "seat.hand": (name) => `Main de ${name}`,
  "seat.hand.label": "Main",

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
  "table.lost_seat_key": "La clé de votre joueur n'agit plus pour cette place (vous l'avez quittée, ou la clé a été remplacée sur un autre appareil : importez la nouvelle dans Votre joueur). Vous regardez.",
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
  "prompt.other": (t) => t.type.replace(/_/g, " "),
  "button.pass_cards": "Passer",
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
  "problem.already-queued": "Vous attendez déjà une table (peut-être dans un autre onglet ou sur un autre appareil) : voici où vous en êtes.",
  "problem.already-matched": "Trop tard pour annuler : une table vient de vous être trouvée.",
  "problem.other": (code) => `Le serveur a refusé (${code}).`,

  "result.won": (names) => `${list(names)} ${names.length > 1 ? "ont" : "a"} gagné.`,
  "result.nobody": "Personne n'a gagné.",
  "result.why": "Pourquoi",
  "result.replay": "Revoir cette partie",
  "round.summary": (r) => `Manche ${n(r)} : bilan`,
  "why.trick.highest": (who, c) => `${who} remporte le pli avec la plus forte carte de la couleur demandée, ${the(c)}.`,

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
  "lobby.leaderboard": (game) => `Classement : ${game}`,
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
  "join.as": (name) => `Vous vous asseyez sous le nom de ${name}.`,
  "lobby.here": "Autres tables que ce navigateur détient",

  // votre joueur et sa clé
  "me.title": "Votre joueur",
  "me.as_before": "Vous jouez sous le nom de ",
  "me.link": "Votre clé et vos autres appareils",
  "me.no_rename": "Le nom d'un joueur ne peut pas être changé.",
  "me.none": "Ce navigateur n'a pas encore de joueur.",
  "me.default_name": "Joueur",
  "me.welcome": "Choisissez le nom que verront les autres joueurs ; il ne pourra plus être changé. Votre joueur (ce nom et une clé secrète) est gardé dans ce navigateur, et peut être emmené sur un autre appareil.",
  "me.make": "Garder ce nom",
  "me.have_key": "Déjà joueur sur un autre appareil ? Importez votre clé",
  "me.export": "Jouer sur un autre appareil",
  "me.secret": "Votre clé, c'est votre joueur : qui la détient joue à votre place, à toutes vos tables. Gardez-la secrète : ne la collez jamais dans une discussion, un courriel ou une page publique. Si elle a pu fuiter, remplacez-la plus bas.",
  "me.export_how": "Copiez la clé ou téléchargez-la dans un fichier, puis, sur l'autre appareil, ouvrez ce site, allez dans Votre joueur et importez-la.",
  "me.show_key": "Afficher ma clé",
  "me.your_key": "Votre clé",
  "me.copy": "Copier",
  "me.copied": "Copiée. Ne la collez que sur votre propre appareil.",
  "me.copy_failed": "Ce navigateur n'a pas laissé la page copier : la clé est sélectionnée, copiez-la vous-même.",
  "me.download": "Télécharger dans un fichier",
  "me.file_warning": (name) => `Clé de joueur Cardroom de ${name}. Gardez-la secrète : qui la détient joue sous le nom de ${name}.`,
  "me.import": "Importer une clé",
  "me.import_how": "Collez une clé exportée d'un autre appareil, ou chargez son fichier : ce navigateur joue alors sous ce joueur.",
  "me.import_replaces": (name) => `Ce navigateur oublie alors ${name} (exportez d'abord cette clé pour garder ${name}).`,
  "me.key": "Clé",
  "me.key_file": "ou chargez son fichier…",
  "me.import_button": "Utiliser cette clé",
  "me.import.empty": "Collez d'abord une clé (ou chargez son fichier).",
  "me.import.same": "C'est déjà la clé qu'utilise ce navigateur.",
  "me.import.confirm": (name, other) => `Ce navigateur va oublier ${name} et jouer sous le nom de ${other}. Continuer ?`,
  "me.import.wrong": "Cette clé n'est pas une clé de joueur, ou elle a été remplacée depuis son export. Vérifiez que vous l'avez copiée en entier ; si elle a été remplacée, exportez la nouvelle depuis un appareil qui l'a.",
  "me.imported": "(clé importée)",
  "me.replace": "Remplacer ma clé",
  "me.replace_how": "Si votre clé a pu fuiter : une nouvelle clé est créée et l'ancienne cesse aussitôt de marcher, sur tous les appareils qui l'ont. Exportez la nouvelle vers vos autres appareils.",
  "me.replace_button": "Remplacer ma clé",
  "me.replace.confirm": "Votre clé actuelle va cesser de marcher aussitôt, ici et sur tous vos autres appareils. Continuer ?",
  "me.replaced": "(nouvelle clé : l'ancienne ne marche plus)",
  "me.key_refused": "La clé de votre joueur ne marche plus (a-t-elle été remplacée sur un autre appareil ?).",
  "me.key_refused.fix": "Importer la nouvelle clé",

  // mes tables
  "mine.title": "Mes tables",
  "mine.all": "Toutes mes tables",
  "mine.as": (name) => `Les tables où ${name} est assis, la plus récemment jouée d'abord.`,
  "mine.status": "Afficher",
  "mine.any_status": "toutes les tables",
  "mine.only_my_turn": "seulement celles où c'est mon tour",
  "mine.more": "Plus de tables",
  "mine.your_turn": "À vous",
  "mine.your_turn_at": (game) => `À vous de jouer à ${game}.`,
  "mine.until": (time) => `(jusqu'à ${time})`,
  "mine.no_player": "Ce navigateur n'a pas encore de joueur : créez ou rejoignez d'abord une table.",

  // jouer maintenant : la file d'attente
  "queue.title": "Jouer maintenant",
  "queue.about": "Une table avec des joueurs de votre niveau, en général en quelques secondes. La partie commence dès que la table est pleine.",
  "queue.sizes": "Nombre de joueurs",
  "queue.size": (size) => count(size, "joueur", "joueurs"),
  "queue.rated": "Classée : la partie compte pour votre classement",
  "queue.bots": "Si personne ne vient, des robots peuvent compléter la table",
  "queue.bots_after": "Secondes d'attente avant les robots",
  "queue.join": "Jouer maintenant",
  "queue.no_size": "Choisissez au moins un nombre de joueurs.",
  "queue.bad_seconds": `L'attente avant les robots est un nombre entier de secondes, de 0 à ${n(3600)}.`,
  // « d'une table (<jeu>, …) » : le nom du jeu entre parenthèses, sans élision à faire.
  "queue.searching": (game, sizes, rated, bots) => `Recherche d'une table (${game}, ${orList(sizes.map(n))} joueurs, ${rated ? "classée" : "amicale"}` +
    `${bots === null || bots === undefined ? "" : `, robots après ${count(bots, "seconde", "secondes")}`})…`,
  "queue.waited": (s) => `Attente : ${count(s, "seconde", "secondes")}.`,
  "queue.left": "Vous avez quitté la file d'attente.",
  "queue.cancel": "Annuler",
  "queue.found": "Une table vous a été trouvée :",
  "queue.open": (seat) => `l'ouvrir (place ${n(seat)})`,

  // classements
  "board.title": "Classements",
  "board.types": "Jeux",
  "board.about": "Les joueurs ayant au moins 10 parties classées d'un jeu, selon leur note affichée : la note moins trois fois son incertitude, un chiffre prudent qui monte à mesure qu'un joueur fait ses preuves. Les robots sont classés aussi.",
  "board.caption": (game) => `${game} : les meilleurs d'abord`,
  "board.rank": "Rang",
  "board.player": "Joueur",
  "board.rating": "Note",
  "board.games": "Parties classées",
  "board.display": (x) => new Intl.NumberFormat("fr", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x),
  "board.bot": (level) => ({ random: "Robot hasard", basic: "Robot simple", strong: "Robot fort" })[level] || `Robot (${level})`,
  "board.you": "(vous)",
  "board.more": "Plus de joueurs",
  "board.empty": (game) => `Personne n'est encore classé à ${game} : un joueur apparaît ici après 10 parties classées.`,
  "board.empty_how": "Jouer une partie classée maintenant",
  "board.unknown": "Ce jeu n'existe pas.",

  "guide.title": (game) => `Comment jouer à ${game}`,
  "guide.all": "Règles",
  "guide.pick": "Choisissez un jeu :",
  "guide.loading": "Chargement des règles…",
  "guide.missing": "Ces règles ne peuvent pas être chargées.",
  "glossary.title": "Glossaire",
  "glossary.intro": "Les mots des jeux, tels que ce site les emploie. À une table, chacun de ces mots s'explique quand on le survole, qu'on le touche ou qu'on y place le focus du clavier.",

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
  "log.CardsPassed": (d, who) => `${who(d.seat)} passe ${cardsOrCount(d)}.`,
  "log.CardsReceived": (d, who) => `${who(d.seat)} reçoit ${cardsOrCount(d)} de ${who(d.from_seat)}.`,
  "log.CardPlayed": (d, who) => `${who(d.seat)} joue ${the(d.card)}.`,
  "log.TrickWon": (d, who) => `${who(d.seat)} remporte le pli.`,
  "log.GameEnded": (d, who) => d.winners.length ? `Partie terminée : ${list(d.winners.map(who))} ${d.winners.length > 1 ? "ont" : "a"} gagné.` : "Partie terminée : personne n'a gagné.",
  "log.other": (type) => `${type.replace(/([a-z])([A-Z])/g, "$1 $2")}.`,

  "hand": hand,
};
