// What each game shows on the table besides hands and the trick: public per-seat figures and
// the game's own table state. Everything here comes from the view the caller may see.

import { cardFace } from "./cards.js";
import { h } from "./dom.js";

// The public figures of a seat, in the order a player reads them.
const FIGURES = {
  st_patrick: [["life", "life"], ["relics", "relics"], ["bites", "bites"], ["tricks_won", "tricks"], ["hand_count", "cards"]],
  ouroboros_trick: [["hand_count", "hand"], ["pool_count", "pool"]],
  trick_and_snipers: [["victory_points", "points"], ["tricks_won", "tricks"], ["hand_count", "cards"]],
  saint_poker: [["points", "points"], ["hand_count", "cards"]],
};

const CHOSEN = { has_passed: "passed", has_committed: "committed", has_revealed: "chose" };

export function seatFigures(game, seat) {
  const shown = (FIGURES[game.type] || []).filter(([key]) => seat[key] !== undefined);
  const items = shown.map(([key, label]) =>
    h("span", { class: `figure ${key}` }, h("b", {}, seat[key]), ` ${label}`));
  for (const [key, label] of Object.entries(CHOSEN)) {
    if (seat[key]) items.push(h("span", { class: "figure chosen" }, `✓ ${label}`));
  }
  return h("div", { class: "figures" }, items);
}

// Extra cards a seat shows in public (Trick & Snipers' face-up scoring tricks, St Patrick bites).
export function seatCards(game, seat) {
  if (game.type === "trick_and_snipers" && seat.face_up_tricks && seat.face_up_tricks.length) {
    return h("div", { class: "seat-cards", "aria-label": "face-up tricks" },
      seat.face_up_tricks.map((trick) => h("span", { class: "mini-trick" },
        (trick.cards || trick).map((card) => cardFace(card, "small")))));
  }
  if (game.type === "st_patrick" && seat.bite_cards && seat.bite_cards.length) {
    return h("div", { class: "seat-cards", "aria-label": "bites" },
      seat.bite_cards.map((card) => cardFace(card, "small")));
  }
  return null;
}

const fact = (label, value) => h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value));

function stPatrick(game, who) {
  return h("dl", { class: "facts" },
    fact("round", game.round),
    fact("phase", game.phase),
    fact("relics left", game.relics_left),
    fact("curses", game.curses),
    fact("special hunt", game.special_hunt ? "yes" : "no"),
    game.pass_count !== null && game.pass_count !== undefined ? fact("cards to pass", game.pass_count) : null,
    game.pass_chooser !== null && game.pass_chooser !== undefined ? fact("pass count chosen by", who(game.pass_chooser)) : null,
    game.phase === "hunting" || game.phase === "playing" ? fact("trick", game.trick_number) : null,
  );
}

function ouroboros(game, who) {
  return h("dl", { class: "facts" },
    fact("trick", game.trick_number),
    fact("discard pile", [game.discard_top ? cardFace(game.discard_top) : "empty", ` (${game.discard_count})`]),
    game.pending_discard ? fact("discarding", `${who(game.pending_discard.seat)}: ${game.pending_discard.count}`) : null,
    game.last_trick && game.last_trick.lowest ? fact("last trick's lowest rank", game.last_trick.lowest) : null,
  );
}

function trickAndSnipers(game, who) {
  const last = game.last_trick;
  return h("dl", { class: "facts" },
    fact("trick", game.trick_number),
    fact("phase", game.phase),
    last ? fact("last point", last.point_to === null ? "none" : who(last.point_to)) : null,
  );
}

// Saint Poker's river is where pickups are chosen from, so its cards can be buttons.
function saintPoker(game, who, choose) {
  const tableCard = (card) => (choose ? choose(card) : cardFace(card));
  const revealed = (game.revealed || []).map((cards, seat) => cards.length
    ? h("div", { class: "revealed" }, h("span", { class: "who" }, who(seat)), cards.map(tableCard))
    : null);
  return h("div", { class: "poker" },
    h("dl", { class: "facts" },
      fact("round", game.round),
      fact("phase", game.phase),
      fact("deck", game.deck_count),
      game.picker !== null && game.picker !== undefined ? fact("picking", who(game.picker)) : null,
      game.pickup_order && game.pickup_order.length
        ? fact("pickup order", game.pickup_order.map(who).join(" → ")) : null),
    h("div", { id: "river", class: "river", "aria-label": "river" },
      h("span", { class: "label" }, "River"), (game.river || []).map(tableCard),
      (game.future_river || []).map((card) => cardFace(card, "future"))),
    revealed,
    game.ranking ? h("ol", { class: "ranking", "aria-label": `hands of round ${game.ranking.round}` },
      game.ranking.hands.map((hand) => h("li", {},
        `${who(hand.seat)}: ${hand.name} (${hand.points >= 0 ? "+" : ""}${hand.points})`))) : null,
  );
}

const PANELS = { st_patrick: stPatrick, ouroboros_trick: ouroboros, trick_and_snipers: trickAndSnipers, saint_poker: saintPoker };

// `choose(card)` draws a table card as a button when the seat's choice is among table cards.
export function tableState(game, who, choose) {
  const panel = PANELS[game.type];
  return panel ? panel(game, who, choose) : null;
}

// The seat's private extras, named in words.
const PRIVATE = {
  passed_cards: "You passed",
  received_cards: "You received",
  pool: "Your pool",
  committed_card: "Your river card",
  chosen_cards: "You reveal",
};

export function privateCards(you) {
  return Object.entries(PRIVATE).map(([key, label]) => {
    const value = you[key];
    if (!value || (Array.isArray(value) && !value.length)) return null;
    const cards = Array.isArray(value) ? value : [value];
    return h("div", { class: "private" }, h("span", { class: "label" }, label), cards.map((c) => cardFace(c, "small")));
  });
}

