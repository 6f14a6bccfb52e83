// Why things went as they did, in sentences: who took a trick and why, what a round scored and
// why, and which rule or tiebreak decided the game. Read from the events alone (public once
// played), so the table, the log and the replay agree. Each game says its own reasons: its view
// module's `why` maps an event type to (events, index, who) → sentences; a trick of a game
// that says nothing of its tricks is explained by the common rule, the highest card of the led
// suit. The helpers below are the ones those hooks share.

import { viewOf } from "./catalog.js";
import { inGame, t } from "./i18n.js";

// The CardPlayed events of the trick that events[index] (a TrickWon) closed, in play order.
export function trickPlays(events, index) {
  const size = (events[index].data.cards || []).length;
  const plays = [];
  for (let i = index - 1; i >= 0 && plays.length < size; i--) {
    if (events[i].type === "TrickWon") break;
    if (events[i].type === "CardPlayed") plays.unshift(events[i].data);
  }
  return plays;
}

export const highestOf = (plays, suit) =>
  plays.filter((p) => p.card.suit === suit).reduce((best, p) => (!best || p.card.rank > best.card.rank ? p : best), null);

// The common reason a trick went where it did: its winner played the highest card of the led
// suit (none for a trick whose plays are not in the log).
export function whyHighest(events, index, who) {
  const won = events[index].data;
  const plays = trickPlays(events, index);
  if (!plays.length) return [];
  const mine = plays.find((p) => p.seat === won.seat);
  return [t("why.trick.highest", who(won.seat), mine ? mine.card : highestOf(plays, plays[0].card.suit).card)];
}

export const tiedAtTop = (seats, value) => {
  const top = Math.max(...seats.map(value));
  return seats.filter((s) => value(s) === top);
};

const COMMON = { TrickWon: whyHighest };

// Sentences run together in one line (the log's): each ends with a stop.
export const asOneLine = (sentences) => sentences.map((line) => (/[.!?]$/.test(line) ? line : `${line}.`)).join(" ");

// The sentences that explain events[index], or none for an event that needs no explaining.
export function explain(gameType, events, index, who) {
  const why = (viewOf(gameType).why || {})[events[index].type] || COMMON[events[index].type];
  if (!why) return [];
  try {
    return inGame(gameType, () => why(events, index, who));
  } catch { /* an event of a shape this page does not know: no explanation rather than none at all */ }
  return [];
}
