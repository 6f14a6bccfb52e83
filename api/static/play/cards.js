// Cards: their names in words, the order a hand is shown in, and how one is drawn.

import { h, s } from "./dom.js";

export const SUITS = {
  st_patrick: ["clover", "cross", "harp", "snake"],
  ouroboros_trick: ["red", "yellow", "green", "blue"],
  trick_and_snipers: ["red", "yellow", "green", "blue"],
  saint_poker: ["spades", "hearts", "diamonds", "clubs"],
};
const FACES = { 11: ["J", "jack"], 12: ["Q", "queen"], 13: ["K", "king"], 14: ["A", "ace"] };

const isPoker = (card) => ["spades", "hearts", "diamonds", "clubs"].includes(card.suit);

export function rankLabel(card) {
  return isPoker(card) && FACES[card.rank] ? FACES[card.rank][0] : String(card.rank);
}

// "9 of clover", "queen of hearts": the accessible name, and how the log spells a card.
export function cardName(card) {
  const rank = isPoker(card) && FACES[card.rank] ? FACES[card.rank][1] : String(card.rank);
  return `${rank} of ${card.suit}`;
}

export const cardList = (cards) => cards.map(cardName).join(", ");
export const sameCard = (a, b) => a.suit === b.suit && a.rank === b.rank;
export const cardKey = (card) => `${card.suit}:${card.rank}`;

export function sortCards(cards, gameType) {
  const order = SUITS[gameType] || [];
  return [...cards].sort(
    (a, b) => order.indexOf(a.suit) - order.indexOf(b.suit) || a.rank - b.rank,
  );
}

function face(card) {
  return [
    h("span", { class: "rank", "aria-hidden": "true" }, rankLabel(card)),
    s("svg", { class: "pip", "aria-hidden": "true", focusable: "false" },
      s("use", { href: `#suit-${card.suit}` })),
  ];
}

// A card that may be chosen: a real button, so it is focusable and works with Enter/Space.
export function cardButton(card, { enabled, pressed, onclick } = {}) {
  return h("button", {
    type: "button",
    class: `card${enabled ? " legal" : ""}`,
    "data-suit": card.suit,
    "data-rank": card.rank,
    "aria-label": cardName(card),
    "aria-pressed": pressed === undefined ? undefined : String(pressed),
    disabled: !enabled,
    onclick: enabled ? onclick : undefined,
  }, face(card));
}

// A card only to look at.
export function cardFace(card, extraClass = "") {
  return h("span", {
    class: `card face ${extraClass}`.trim(),
    role: "img",
    "data-suit": card.suit,
    "data-rank": card.rank,
    "aria-label": cardName(card),
  }, face(card));
}

export function cardBack(label = "a hidden card") {
  return h("span", { class: "card back", role: "img", "aria-label": label });
}
