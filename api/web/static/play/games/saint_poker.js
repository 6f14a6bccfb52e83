// Saint Poker on the web table: its table state (the round, the deck, the river and the next
// one, whose cards a pickup chooses from, the revealed hands and their ranking), its seats'
// "chosen" marks and private cards, its log lines that depend on what an event says, and why a
// round and the game went as they did (its points chart is the common one: what each round
// scores, added up). The hooks games.js describes; the words are the game's own
// (domain/games/saint_poker/words.py, through GET /game-types).

import { cardFace } from "../cards.js";
import { h } from "../dom.js";
import { fact, known, phaseFact } from "../games.js";
import { t } from "../i18n.js";
import { term } from "../terms.js";
import { said } from "../words.js";

export const phaseTerms = { committing: "river-card", revealing: "reveal", pickup: "pickup" };
export const chosen = { has_committed: "river-card", has_revealed: "reveal" };
export const privateCards = { committed_card: null, chosen_cards: null };

const signed = (points) => `${points >= 0 ? "+" : ""}${t("count", points)}`;

// The river is where pickups are chosen from, so its cards can be buttons (`choose`).
export function panel(game, who, choose) {
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
      game.ranking.hands.map((hand) => h("li", {}, t("ranking.hand", who(hand.seat), t("hand", hand.name), signed(hand.points))))) : null,
  );
}

export const why = {
  RoundScored(events, index, who) {
    const data = events[index].data;
    const lines = [t("why.poker.best", data.round)];
    const best = data.ranking.filter((hand) => hand.place === 1).length;
    if (best > 1) lines.push(t("why.poker.tie", data.round, best));
    for (const hand of data.ranking) lines.push(t("why.poker.line", who(hand.seat), t("hand", hand.name), hand.points));
    if (data.pickup_order && data.pickup_order.length) {
      const first = data.pickup_order.slice(0, data.pickup_order.length / 2 || data.pickup_order.length);
      lines.push(t("why.poker.pickup", first.map(who)));
    }
    return lines;
  },
  GameEnded(events, index) {
    const data = events[index].data;
    const lines = [t("why.end.poker")];
    if (data.winners.length > 1) lines.push(t("why.end.poker.shared", (data.final[String(data.winners[0])] || {}).points));
    return lines;
  },
};

export const log = {
  RoundStarted: (d, who) => said(d.river.length ? "log.RoundStarted" : "log.RoundStarted.empty", d, who),
  RiverCardCommitted: (d, who) => said(d.card ? "log.RiverCardCommitted" : "log.RiverCardCommitted.hidden", d, who),
  RevealChosen: (d, who) => said(d.cards ? "log.RevealChosen" : "log.RevealChosen.hidden", d, who),
  CardsRevealed: (d, who) => t("log.CardsRevealed",
    d.cards.map((cards, seat) => t("log.CardsRevealed.seat", who(seat), cards)).join(t("log.CardsRevealed.joiner"))),
  RoundScored: (d, who) => said("log.RoundScored", {
    ...d, scores: d.points.map((points, seat) => t("log.RoundScored.points", who(seat), points)),
  }, who),
  RoundEnded: (d, who) => said(d.discarded ? "log.RoundEnded.discarded" : "log.RoundEnded", d, who),
};
