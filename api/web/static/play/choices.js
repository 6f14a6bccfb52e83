// Legal-action templates turned into choices, as docs/api.md says a client should: with min/max
// send a count; with count and cards send that many cards; with cards alone send one card;
// otherwise just the type. Whatever the controls let a player build is legal.

import { cardKey } from "./cards.js";
import { has, t } from "./i18n.js";

export function prompt(template) {
  const key = `prompt.${template.type}`;
  return has(key) ? t(key, template) : t("prompt.other", template);
}

export function buttonLabel(template, fallback) {
  const key = `button.${template.type}`;
  return has(key) ? t(key) : fallback;
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

// A choice of cards none of which is in the hand (a pickup from the river): made on the table.
export const onTheTable = (template, hand) => {
  const held = new Set(hand.map(cardKey));
  return template.cards.length > 0 && !template.cards.some((card) => held.has(cardKey(card)));
};

export function action(template, { card, cards, count } = {}) {
  const kind = kindOf(template);
  if (kind === "number") return { type: template.type, count };
  if (kind === "cards") return { type: template.type, cards };
  if (kind === "card") return { type: template.type, card };
  return { type: template.type };
}

// "play 3 of red or 5 of red; or take no relics": the legal moves, for a refused action.
export function legalInWords(templates) {
  return templates.map((template) => {
    const kind = kindOf(template);
    if (kind === "card") return t("legal.one", prompt(template), template.cards);
    if (kind === "cards") return t("legal.some", prompt(template), template.cards);
    return prompt(template);
  }).join(t("legal.or"));
}
