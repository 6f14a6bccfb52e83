// Ouroboros Trick on the web table: its table state (the trick, the discard pile, who must
// discard), its pool and phase terms, its cards-left chart, its discards in the log, and why a
// trick (trumps, discards) and the game went as they did. The hooks games.js describes; the
// words are the game's own (domain/games/ouroboros_trick/words.py, through GET /game-types).

import { cardFace } from "../cards.js";
import { h } from "../dom.js";
import { fact, known, phaseFact } from "../games.js";
import { t } from "../i18n.js";
import { trickPlays } from "../outcomes.js";
import { said } from "../words.js";

export const phaseTerms = { discarding: "discard" };
export const privateCards = { pool: "pool" };

export function panel(game, who) {
  return h("dl", { class: "facts" },
    phaseFact(game),
    fact("trick", "trick", t("count", game.trick_number)),
    fact("discard_pile", "discard-pile", [game.discard_top ? cardFace(game.discard_top) : t("fact.discard_empty"), ` (${t("count", game.discard_count)})`]),
    game.pending_discard ? fact("discarding", "discard", `${who(game.pending_discard.seat)}: ${t("count", game.pending_discard.count)}`) : null,
    game.last_trick && game.last_trick.lowest ? fact("last_lowest", "lowest-rank", t("count", game.last_trick.lowest)) : null,
  );
}

// Cards a seat still owns (hand + pool): dealt, minus played, plus tricks won, minus discards;
// sampled as each new trick starts and at the end.
export function series(events, players) {
  let values = Array(players).fill(0);
  const points = [];
  let inTrick = 0;
  let trick = 0;
  for (const event of events) {
    const d = event.data;
    if (event.type === "HandDealt") values[d.seat] += d.cards ? d.cards.length : d.count;
    if (event.type === "CardPlayed") {
      if (inTrick === 0) points.push({ x: trick, values: [...values] });
      inTrick += 1;
      values[d.seat] -= 1;
    }
    if (event.type === "TrickWon") {
      values[d.seat] += d.cards.length;
      inTrick = 0;
      trick += 1;
    }
    if (event.type === "CardsDiscarded") values[d.seat] -= d.cards ? d.cards.length : d.count;
    values = [...values];
  }
  points.push({ x: trick, values: [...values] });
  return points;
}

export const why = {
  // Every card not of the led suit is a trump: the highest trump wins, the last of equal ones.
  TrickWon(events, index, who) {
    const won = events[index].data;
    const plays = trickPlays(events, index);
    if (!plays.length) return [];
    const led = plays[0].card.suit;
    const mine = plays.find((p) => p.seat === won.seat);
    const trumps = plays.filter((p) => p.card.suit !== led);
    const top = trumps.length ? Math.max(...trumps.map((p) => p.card.rank)) : null;
    const lines = [];
    if (!trumps.length) lines.push(t("why.trick.highest", who(won.seat), mine.card));
    else if (trumps.filter((p) => p.card.rank === top).length > 1) lines.push(t("why.trick.trump_tie", who(won.seat), mine.card));
    else lines.push(t("why.trick.trump", who(won.seat), mine.card));
    if (known(won.discard_count)) lines.push(t("why.trick.discard", who(won.seat), won.discard_count));
    return lines;
  },
  GameEnded(events, index, who) {
    const data = events[index].data;
    return [data.winners.length ? t("why.end.ouro", data.losers.map(who)) : t("why.end.ouro.all")];
  },
};

export const log = {
  TrickWon: (d, who) => said(d.discard_count ? "log.TrickWon.discard" : "log.TrickWon", d, who),
  CardsDiscarded: (d, who) => said(d.forced ? "log.CardsDiscarded.forced" : "log.CardsDiscarded", d, who),
};
