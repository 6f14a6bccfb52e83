// Legal-action templates turned into choices, as API.md says a client should: with min/max send
// a count; with count and cards send that many cards; with cards alone send one card; otherwise
// just the type. Whatever the controls let a player build is legal.

import { cardKey, cardList } from "./cards.js";

const PROMPTS = {
  play_card: () => "play a card",
  pass_cards: (t) => `choose ${t.count} card${t.count === 1 ? "" : "s"} to pass`,
  discard: (t) => `choose ${t.count} card${t.count === 1 ? "" : "s"} to discard`,
  reveal_cards: (t) => `choose ${t.count} cards to reveal`,
  commit_river_card: () => "choose a card for the river",
  pick_up: () => "pick up a card from the table",
  take_relics: (t) => `take ${t.min}–${t.max} relics`,
  pass_relics: () => "pass on the relics",
  choose_pass_count: (t) => `choose how many cards to pass (${t.min}–${t.max})`,
};

export const BUTTON_LABELS = {
  pass_cards: "Pass",
  discard: "Discard",
  reveal_cards: "Reveal",
  take_relics: "Take relics",
  pass_relics: "Take no relics",
  choose_pass_count: "Set pass count",
};

export function prompt(template) {
  const say = PROMPTS[template.type];
  return say ? say(template) : template.type.replace(/_/g, " ");
}

export const kindOf = (template) => {
  if ("min" in template && "max" in template) return "number";
  if (template.cards && "count" in template) return "cards";
  if (template.cards) return "card";
  return "plain";
};

// The one template whose cards the page lets the player pick (a seat never has two at once).
export function cardTemplate(templates) {
  return templates.find((t) => kindOf(t) === "card" || kindOf(t) === "cards") || null;
}

export const allowedCards = (template) => new Set((template ? template.cards : []).map(cardKey));

export function action(template, { card, cards, count } = {}) {
  const kind = kindOf(template);
  if (kind === "number") return { type: template.type, count };
  if (kind === "cards") return { type: template.type, cards };
  if (kind === "card") return { type: template.type, card };
  return { type: template.type };
}

// "play 3 of red or 5 of red; or take no relics": the legal moves, for a refused action.
export function legalInWords(templates) {
  return templates.map((t) => {
    const kind = kindOf(t);
    if (kind === "card") return `${prompt(t)}: ${cardList(t.cards)}`;
    if (kind === "cards") return `${prompt(t)} from ${cardList(t.cards)}`;
    return prompt(t);
  }).join("; or ");
}
