// What a table shows besides hands and the trick: each seat's public figures, its private
// cards, and the game's own table state, each game term a `term` that explains itself.
// Everything here comes from the view the caller may see. No game is named here: what differs
// between games is in GET /game-types (figures, words) and in the game's optional view module
// (games/<id>.js), whose hooks are called when it has them:
//   panel(view, who, choose)  the game's table state (facts, river…): an element, or null
//   seatCards(view, seat)     cards a seat shows in public, beside its figures
//   phaseTerms                phase → glossary term, beside the common ones (PHASE_TERMS)
//   chosen                    seat flag → glossary term: "✓ passed" and the like (CHOSEN)
//   privateCards              field of `you` → glossary term (or null), beside PRIVATE
//   why, log, series          see outcomes.js, words.js and chart.js
// A hook runs with the game's words first (inGame), so its t() says the game's own words.

import { cardFace } from "./cards.js";
import { gameType, viewOf } from "./catalog.js";
import { h } from "./dom.js";
import { has, inGame, t } from "./i18n.js";
import { term } from "./terms.js";

// What every game with these fields shows; a view module adds its own.
const CHOSEN = { has_passed: "pass" };
const PHASE_TERMS = { playing: "trick", passing: "pass" };
const PRIVATE = { passed_cards: null, received_cards: null };

export const known = (value) => value !== null && value !== undefined;

export function seatFigures(game, seat) {
  return inGame(game.type, () => {
    // The public figures of a seat, in the order a player reads them (GET /game-types).
    const figures = (gameType(game.type)?.figures || []).map(({ field, term }) => [field, term]);
    const shown = figures.filter(([key]) => seat[key] !== undefined);
    const items = shown.map(([key, glossary]) =>
      h("span", { class: `figure ${key}`, "data-value": seat[key] }, term(glossary, t(`figure.${key}`, seat[key]))));
    for (const [key, glossary] of Object.entries({ ...CHOSEN, ...viewOf(game.type).chosen })) {
      if (seat[key]) items.push(h("span", { class: "figure chosen" }, "✓ ", term(glossary, t(`figure.${key}`))));
    }
    return h("div", { class: "figures" }, items);
  });
}

// Extra cards a seat shows in public (tricks that scored, cards that bit), if the game has any.
export function seatCards(game, seat) {
  const draw = viewOf(game.type).seatCards;
  return draw ? inGame(game.type, () => draw(game, seat)) : null;
}

// A fact of the table: its label (a glossary term when it has one) and its value.
export const fact = (key, glossary, value) =>
  h("div", { class: "fact", "data-fact": key }, h("dt", {}, glossary ? term(glossary, t(`fact.${key}`)) : t(`fact.${key}`)), h("dd", {}, value));

// The phase in words: the game's own (its words' "phase.<phase>"), the common ones, else its id.
export function phaseName(game) {
  if (!game.phase) return "";
  return inGame(game.type, () => (has(`phase.${game.phase}`) ? t(`phase.${game.phase}`) : game.phase.replace(/_/g, " ")));
}

export function phaseFact(game) {
  const glossary = (viewOf(game.type).phaseTerms || {})[game.phase] || PHASE_TERMS[game.phase];
  return fact("phase", "phase", glossary ? term(glossary, phaseName(game)) : phaseName(game));
}

// `choose(card)` draws a table card as a button when the seat's choice is among table cards.
export function tableState(game, who, choose) {
  const panel = viewOf(game.type).panel;
  return panel ? inGame(game.type, () => panel(game, who, choose)) : null;
}

// The seat's private extras, named in words.
export function privateCards(game, you) {
  return inGame(game.type, () => Object.entries({ ...PRIVATE, ...viewOf(game.type).privateCards }).map(([key, glossary]) => {
    const value = you[key];
    if (!value || (Array.isArray(value) && !value.length)) return null;
    const cards = Array.isArray(value) ? value : [value];
    const label = t(`private.${key}`);
    return h("div", { class: "private", role: "group", "aria-label": label },
      glossary ? term(glossary, label, "label") : h("span", { class: "label" }, label),
      cards.map((c) => cardFace(c, "small")));
  }));
}
