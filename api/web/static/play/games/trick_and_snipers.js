// Trick & Snipers on the web table: its table state (the trick, the last trick's point), each
// seat's face-up tricks, its victory-point chart, its snipes in the log, and why a trick and the
// game went as they did. The hooks games.js describes; the words are the game's own
// (domain/games/trick_and_snipers/words.py, through GET /game-types).

import { cardFace } from "../cards.js";
import { h } from "../dom.js";
import { fact, known, phaseFact } from "../games.js";
import { t } from "../i18n.js";
import { highestOf, tiedAtTop, trickPlays, whyHighest } from "../outcomes.js";
import { term } from "../terms.js";
import { said } from "../words.js";

export function panel(game, who) {
  const last = game.last_trick;
  return h("dl", { class: "facts" },
    phaseFact(game),
    game.phase === "playing" ? fact("trick", "trick", t("count", game.trick_number)) : null,
    last ? fact("last_point", "victory-point", last.point_to === null ? t("none") : who(last.point_to)) : null,
  );
}

export function seatCards(game, seat) {
  if (!seat.face_up_tricks || !seat.face_up_tricks.length) return null;
  return h("div", { class: "seat-cards" }, term("face-up-trick", t("seat.cards.face_up"), "label"),
    h("div", { role: "group", "aria-label": t("seat.cards.face_up") }, seat.face_up_tricks.map((trick) =>
      h("span", { class: "mini-trick" }, (trick.cards || trick).map((card) => cardFace(card, "small"))))));
}

// Victory points by trick: each TrickWon gives its point (if any) to `point_to`.
export function series(events, players) {
  const points = [{ x: 0, values: Array(players).fill(0) }];
  let values = [...points[0].values];
  let trick = 0;
  for (const event of events) {
    if (event.type !== "TrickWon") continue;
    trick += 1;
    values = [...values];
    if (known(event.data.point_to)) values[event.data.point_to] += 1;
    points.push({ x: trick, values });
  }
  return points;
}

export const why = {
  TrickWon(events, index, who) {
    const lines = whyHighest(events, index, who);
    if (!lines.length) return [];
    const won = events[index].data;
    const plays = trickPlays(events, index);
    const led = plays[0].card.suit;
    const snipes = [];
    plays.forEach((p, k) => {
      if (p.snipe) snipes.push({ play: p, on: highestOf(plays.slice(0, k), led) });
    });
    if (snipes.length) {
      const last = snipes[snipes.length - 1];
      if (last.on) lines.push(t("why.trick.snipe", who(last.play.seat), last.play.card, last.on.card));
    }
    if (!known(won.point_to)) lines.push(t("why.trick.no_point"));
    else if (snipes.length) lines.push(t("why.trick.point_snipe", who(won.point_to)));
    else lines.push(t("why.trick.point_seven", who(won.point_to)));
    return lines;
  },
  GameEnded(events, index, who) {
    const data = events[index].data;
    const final = (seat) => data.final[String(seat)] || {};
    const seats = Object.keys(data.final).map(Number);
    const reached = seats.filter((s) => final(s).victory_points >= 2);
    if (reached.length) return [t("why.end.tas.reached", who(reached[0]))];
    const lines = [t("why.end.tas.out")];
    const byPoints = tiedAtTop(seats, (s) => final(s).victory_points);
    if (byPoints.length > 1) lines.push(t("why.end.tas.tie", final(byPoints[0]).victory_points));
    if (data.winners.length > 1) lines.push(t("why.end.tas.shared"));
    return lines;
  },
};

export const log = {
  CardPlayed: (d, who) => said(d.snipe ? "log.CardPlayed.snipe" : "log.CardPlayed", d, who),
  TrickWon: (d, who) => said(known(d.point_to) ? "log.TrickWon.point" : "log.TrickWon", d, who),
};
