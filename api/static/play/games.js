// What each game shows on the table besides hands and the trick: public per-seat figures and
// the game's own table state, each game term a `term` that explains itself. Everything here
// comes from the view the caller may see.

import { cardFace } from "./cards.js";
import { gameType } from "./catalog.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { term } from "./terms.js";


const CHOSEN = { has_passed: "pass", has_committed: "river-card", has_revealed: "reveal" };

export function seatFigures(game, seat) {
  // The public figures of a seat, in the order a player reads them (GET /game-types).
  const figures = (gameType(game.type)?.figures || []).map(({ field, term }) => [field, term]);
  const shown = figures.filter(([key]) => seat[key] !== undefined);
  const items = shown.map(([key, glossary]) =>
    h("span", { class: `figure ${key}`, "data-value": seat[key] }, term(glossary, t(`figure.${key}`, seat[key]))));
  for (const [key, glossary] of Object.entries(CHOSEN)) {
    if (seat[key]) items.push(h("span", { class: "figure chosen" }, "✓ ", term(glossary, t(`figure.${key}`))));
  }
  return h("div", { class: "figures" }, items);
}

// Extra cards a seat shows in public (Trick & Snipers' face-up scoring tricks, St Patrick bites).
export function seatCards(game, seat) {
  if (game.type === "trick_and_snipers" && seat.face_up_tricks && seat.face_up_tricks.length) {
    return h("div", { class: "seat-cards" }, term("face-up-trick", t("seat.cards.face_up"), "label"),
      h("div", { role: "group", "aria-label": t("seat.cards.face_up") }, seat.face_up_tricks.map((trick) =>
        h("span", { class: "mini-trick" }, (trick.cards || trick).map((card) => cardFace(card, "small"))))));
  }
  if (game.type === "st_patrick" && seat.bite_cards && seat.bite_cards.length) {
    return h("div", { class: "seat-cards" }, term("bite-cards", t("seat.cards.bites"), "label"),
      h("div", { role: "group", "aria-label": t("seat.cards.bites") }, seat.bite_cards.map((card) => cardFace(card, "small"))));
  }
  return null;
}

// A fact of the table: its label (a glossary term when it has one) and its value.
const fact = (key, glossary, value) =>
  h("div", { class: "fact", "data-fact": key }, h("dt", {}, glossary ? term(glossary, t(`fact.${key}`)) : t(`fact.${key}`)), h("dd", {}, value));

export function phaseName(game) {
  if (!game.phase) return "";
  const key = has(`phase.${game.type}.${game.phase}`) ? `phase.${game.type}.${game.phase}` : `phase.${game.phase}`;
  return has(key) ? t(key) : game.phase.replace(/_/g, " ");
}

const PHASE_TERMS = { relics: "relic", playing: "trick", passing: "pass", choosing_pass_count: "pass-count",
  discarding: "discard", committing: "river-card", revealing: "reveal", pickup: "pickup" };
const phaseFact = (game) => fact("phase", "phase",
  PHASE_TERMS[game.phase] && game.type === "st_patrick" && game.phase === "playing"
    ? term("hunt", phaseName(game)) : PHASE_TERMS[game.phase] ? term(PHASE_TERMS[game.phase], phaseName(game)) : phaseName(game));
const known = (value) => value !== null && value !== undefined;

function stPatrick(game, who) {
  const passing = game.phase === "passing" || game.phase === "choosing_pass_count";
  return h("dl", { class: "facts" },
    fact("round", "round", t("count", game.round)),
    phaseFact(game),
    fact("relics_left", "relics-left", t("count", game.relics_left)),
    fact("curses", "curse", t("count", game.curses)),
    game.special_hunt ? fact("special_hunt", "special-hunt", t("yes")) : null,
    passing && known(game.pass_count) ? fact("pass_count", "pass-count", t("count", game.pass_count)) : null,
    passing && known(game.pass_chooser) ? fact("pass_chooser", "pass-count", who(game.pass_chooser)) : null,
    game.phase === "playing" ? fact("trick", "trick", t("count", game.trick_number)) : null,
  );
}

function ouroboros(game, who) {
  return h("dl", { class: "facts" },
    phaseFact(game),
    fact("trick", "trick", t("count", game.trick_number)),
    fact("discard_pile", "discard-pile", [game.discard_top ? cardFace(game.discard_top) : t("fact.discard_empty"), ` (${t("count", game.discard_count)})`]),
    game.pending_discard ? fact("discarding", "discard", `${who(game.pending_discard.seat)}: ${t("count", game.pending_discard.count)}`) : null,
    game.last_trick && game.last_trick.lowest ? fact("last_lowest", "lowest-rank", t("count", game.last_trick.lowest)) : null,
  );
}

function trickAndSnipers(game, who) {
  const last = game.last_trick;
  return h("dl", { class: "facts" },
    phaseFact(game),
    game.phase === "playing" ? fact("trick", "trick", t("count", game.trick_number)) : null,
    last ? fact("last_point", "victory-point", last.point_to === null ? t("none") : who(last.point_to)) : null,
  );
}

// Saint Poker's river is where pickups are chosen from, so its cards can be buttons.
function saintPoker(game, who, choose) {
  const tableCard = (card) => (choose ? choose(card) : cardFace(card));
  const revealed = (game.revealed || []).map((cards, seat) => cards.length
    ? h("div", { class: "revealed", role: "group", "aria-label": who(seat) },
      h("span", { class: "who" }, who(seat)), cards.map(tableCard))
    : null);
  const future = game.future_river || [];
  return h("div", { class: "poker" },
    h("dl", { class: "facts" },
      fact("round", "round", t("count", game.round)),
      phaseFact(game),
      fact("deck", "deck", t("count", game.deck_count)),
      known(game.picker) ? fact("picking", "pickup", who(game.picker)) : null,
      game.pickup_order && game.pickup_order.length
        ? fact("pickup_order", "pickup", game.pickup_order.map(who).join(" → ")) : null),
    h("div", { id: "river", class: "river", role: "group", "aria-label": t("river.now") },
      term("river", t("river.now"), "label"), (game.river || []).map(tableCard)),
    h("div", { id: "future-river", class: "river future", role: "group", "aria-label": t("river.next") },
      term("future-river", t("river.next"), "label"),
      future.length ? future.map((card) => cardFace(card, "future")) : h("span", { class: "none" }, t("river.next.none"))),
    revealed,
    game.ranking ? h("ol", { class: "ranking", "aria-label": t("ranking.label", game.ranking.round) },
      game.ranking.hands.map((hand) => h("li", {}, t("ranking.hand", who(hand.seat), t("hand", hand.name), hand.points)))) : null,
  );
}

const PANELS = { st_patrick: stPatrick, ouroboros_trick: ouroboros, trick_and_snipers: trickAndSnipers, saint_poker: saintPoker };

// `choose(card)` draws a table card as a button when the seat's choice is among table cards.
export function tableState(game, who, choose) {
  const panel = PANELS[game.type];
  return panel ? panel(game, who, choose) : null;
}

// The seat's private extras, named in words.
const PRIVATE = ["passed_cards", "received_cards", "pool", "committed_card", "chosen_cards"];

export function privateCards(you) {
  return PRIVATE.map((key) => {
    const value = you[key];
    if (!value || (Array.isArray(value) && !value.length)) return null;
    const cards = Array.isArray(value) ? value : [value];
    const label = t(`private.${key}`);
    return h("div", { class: "private", role: "group", "aria-label": label },
      key === "pool" ? term("pool", label, "label") : h("span", { class: "label" }, label),
      cards.map((c) => cardFace(c, "small")));
  });
}
