// The parts of a table drawn the same way live and in the replay: the trick (or the last one),
// the game's own state, and the seats with their public figures (and, in a finished game's
// replay, their hands).

import { cardFace, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { seatCards, seatFigures, tableState } from "./games.js";
import { t } from "./i18n.js";
import { term } from "./terms.js";

// The seat's own name: "Ada", "Bot 2", "Seat 1" (the log may say "You" instead).
export function seatName(view, seat) {
  const info = view && view.seats[seat];
  if (info && info.name) return info.name;
  if (info && info.kind === "bot") return t("who.bot", seat);
  return t("who.seat", seat);
}

export function trickView(view, who) {
  const trick = view.trick || [];
  const last = view.last_trick;
  const plays = trick.length ? trick : last ? last.plays || [] : [];
  let caption = null;
  if (trick.length) caption = term("trick", t("trick.now", view.trick_number || 1));
  else if (last) caption = t("trick.last", who(last.winner ?? last.seat));
  return caption ? [
    h("p", { class: "caption" }, caption),
    h("ol", { class: `plays${trick.length ? "" : " done"}` }, plays.map((p) =>
      h("li", {}, cardFace(p.card), h("span", { class: "who" }, who(p.seat)))))] : [];
}

export function stateView(view, who, choose = null) {
  return tableState(view, who, choose);
}

// `you`: the seat this browser holds (or null).
export function seatItems(view, you) {
  return view.seats.map((seat) => {
    const classes = ["seat"];
    const toAct = view.to_act.includes(seat.seat);
    if (toAct) classes.push("to-act");
    if (you === seat.seat) classes.push("you");
    if (view.result && view.result.winners.includes(seat.seat)) classes.push("winner");
    const kind = seat.kind === "bot" ? t("seat.kind.bot", seat.level) : t(`seat.kind.${seat.kind === "open" ? "open" : "human"}`);
    return h("li", { class: classes.join(" "), "data-seat": seat.seat },
      h("span", { class: "name" }, seatName(view, seat.seat)),
      you === seat.seat ? h("span", { class: "you-mark" }, ` (${t("seat.you")})`) : null,
      h("span", { class: "kind" }, seat.kind === "bot" ? [" · ", term("bot", kind)] : ` · ${kind}`),
      toAct ? h("span", { class: "turn-mark" }, ` ◀ ${t("seat.to_act")}`) : null,
      seatFigures(view, seat), seatCards(view, seat), openHand(view, seat));
  });
}

// A seat's hand face up: only a finished game's replay has one in `seats`, nothing being secret
// once a game is over; the live table never gets any.
function openHand(view, seat) {
  if (!seat.hand) return null;
  const label = t("seat.hand", seatName(view, seat.seat));
  return h("div", { class: "private open-hand", role: "group", "aria-label": label },
    h("span", { class: "label" }, t("seat.hand.label")),
    seat.hand.length ? sortCards(seat.hand, view.type).map((c) => cardFace(c, "small")) : "—");
}
