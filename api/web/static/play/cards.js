// Cards: their names in words, the order a hand is shown in, and how one is drawn.

import { gameType, isFaceCard } from "./catalog.js";
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

// The letter on a face card (J Q K A; V D R A in French), as GET /game-types marks them.
export function rankLabel(card) {
  return isFaceCard(card) ? t("ranks.face", card.rank) : String(card.rank);
}

// "9 of clover", "queen of hearts" ("9 de trèfle", "dame de cœur"): the accessible name, and
// how the log spells a card.
export const cardName = (card) => t("card", card);
export const cardList = (cards) => t("cards", cards);
export const sameCard = (a, b) => a.suit === b.suit && a.rank === b.rank;
export const cardKey = (card) => `${card.suit}:${card.rank}`;

export function sortCards(cards, type) {
  const order = gameType(type)?.suits || [];
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
export function cardButton(card, options = {}) {
  const button = h("button", {
    type: "button",
    class: "card",
    "data-suit": card.suit,
    "data-rank": card.rank,
    "aria-label": cardName(card),
  }, face(card));
  return setCardButton(button, options);
}

// Updates a card button in place, so a click that lands while the table redraws still counts.
export function setCardButton(button, { enabled, pressed, onclick } = {}) {
  button.classList.toggle("legal", Boolean(enabled));
  button.disabled = !enabled;
  if (pressed === undefined) button.removeAttribute("aria-pressed");
  else button.setAttribute("aria-pressed", String(pressed));
  button.onclick = enabled ? onclick : null;
  return button;
}

// Shows `cards` in `container` as buttons, reusing the buttons already there for the same cards.
export function syncCardButtons(container, cards, optionsFor) {
  const existing = new Map([...container.querySelectorAll("button.card")].map((b) =>
    [`${b.dataset.suit}:${b.dataset.rank}`, b]));
  const buttons = cards.map((card) => {
    const button = existing.get(cardKey(card));
    return button ? setCardButton(button, optionsFor(card)) : cardButton(card, optionsFor(card));
  });
  const same = buttons.length === container.children.length &&
    buttons.every((button, i) => container.children[i] === button);
  if (!same) container.replaceChildren(...buttons);
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

export function cardBack(label = t("card.hidden")) {
  return h("span", { class: "card back", role: "img", "aria-label": label });
}
