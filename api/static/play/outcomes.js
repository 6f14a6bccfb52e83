// Why things went as they did, in sentences: who took a trick and why (the snipe, the trump, the
// highest card), what a round scored and why, and which rule or tiebreak decided the game. Read
// from the events alone (public once played), so the table, the log and the replay agree.

import { t } from "./i18n.js";

const known = (value) => value !== null && value !== undefined;

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

const highestOf = (plays, suit) =>
  plays.filter((p) => p.card.suit === suit).reduce((best, p) => (!best || p.card.rank > best.card.rank ? p : best), null);

function whyTrick(gameType, events, index, who) {
  const won = events[index].data;
  const plays = trickPlays(events, index);
  if (!plays.length) return [];
  const led = plays[0].card.suit;
  const mine = plays.find((p) => p.seat === won.seat);
  const said = [];
  if (gameType === "ouroboros_trick") {
    const trumps = plays.filter((p) => p.card.suit !== led);
    const top = trumps.length ? Math.max(...trumps.map((p) => p.card.rank)) : null;
    if (!trumps.length) said.push(t("why.trick.highest", who(won.seat), mine.card));
    else if (trumps.filter((p) => p.card.rank === top).length > 1) said.push(t("why.trick.trump_tie", who(won.seat), mine.card));
    else said.push(t("why.trick.trump", who(won.seat), mine.card));
    if (known(won.discard_count)) said.push(t("why.trick.discard", who(won.seat), won.discard_count));
    return said;
  }
  said.push(t("why.trick.highest", who(won.seat), mine ? mine.card : highestOf(plays, led).card));
  if (gameType === "st_patrick") said.push(t("why.trick.bites", who(won.seat), won.bites || 0));
  if (gameType === "trick_and_snipers") {
    const snipes = [];
    plays.forEach((p, k) => {
      if (p.snipe) snipes.push({ play: p, on: highestOf(plays.slice(0, k), led) });
    });
    if (snipes.length) {
      const last = snipes[snipes.length - 1];
      if (last.on) said.push(t("why.trick.snipe", who(last.play.seat), last.play.card, last.on.card));
    }
    if (!known(won.point_to)) said.push(t("why.trick.no_point"));
    else if (snipes.length) said.push(t("why.trick.point_snipe", who(won.point_to)));
    else said.push(t("why.trick.point_seven", who(won.point_to)));
  }
  return said;
}

// Why a round scored what it did (RoundScored).
export function whyRound(gameType, data, who) {
  if (gameType === "st_patrick") {
    const said = [];
    if (known(data.big_sacrifice)) said.push(t("why.stp.sacrifice", who(data.big_sacrifice)));
    else if (data.special) said.push(t("why.stp.special"));
    else said.push(t("why.stp.rule"));
    data.life.forEach((life, seat) =>
      said.push(t("why.stp.line", who(seat), data.bites[seat], data.relics[seat], data.changes[seat], life)));
    return said;
  }
  if (gameType === "saint_poker") {
    const said = [t("why.poker.best", data.round)];
    const best = data.ranking.filter((hand) => hand.place === 1).length;
    if (best > 1) said.push(t("why.poker.tie", data.round, best));
    for (const hand of data.ranking) said.push(t("why.poker.line", who(hand.seat), t("hand", hand.name), hand.points));
    if (data.pickup_order && data.pickup_order.length) {
      const first = data.pickup_order.slice(0, data.pickup_order.length / 2 || data.pickup_order.length);
      said.push(t("why.poker.pickup", first.map(who)));
    }
    return said;
  }
  return [];
}

const tiedAtTop = (seats, value) => {
  const top = Math.max(...seats.map(value));
  return seats.filter((s) => value(s) === top);
};

// Which rule, and which tiebreak if any, decided the game (GameEnded).
export function whyEnd(gameType, data, who) {
  const final = (seat) => data.final[String(seat)] || {};
  const seats = Object.keys(data.final).map(Number);
  const said = [];
  if (gameType === "st_patrick") {
    said.push(t("why.end.stp"));
    const byLife = tiedAtTop(seats, (s) => final(s).life);
    if (byLife.length > 1) {
      said.push(t("why.end.stp.tie_relics", final(byLife[0]).life));
      const byRelics = tiedAtTop(byLife, (s) => final(s).relics);
      if (byRelics.length > 1) said.push(t("why.end.stp.tie_snakes"));
      if (data.winners.length > 1) said.push(t("why.end.stp.shared"));
    }
  } else if (gameType === "trick_and_snipers") {
    const reached = seats.filter((s) => final(s).victory_points >= 2);
    if (reached.length) said.push(t("why.end.tas.reached", who(reached[0])));
    else {
      said.push(t("why.end.tas.out"));
      const byPoints = tiedAtTop(seats, (s) => final(s).victory_points);
      if (byPoints.length > 1) said.push(t("why.end.tas.tie", final(byPoints[0]).victory_points));
      if (data.winners.length > 1) said.push(t("why.end.tas.shared"));
    }
  } else if (gameType === "ouroboros_trick") {
    said.push(data.winners.length ? t("why.end.ouro", data.losers.map(who)) : t("why.end.ouro.all"));
  } else if (gameType === "saint_poker") {
    said.push(t("why.end.poker"));
    if (data.winners.length > 1) said.push(t("why.end.poker.shared", final(data.winners[0]).points));
  }
  return said;
}

// Sentences run together in one line (the log's): each ends with a stop.
export const asOneLine = (sentences) => sentences.map((line) => (/[.!?]$/.test(line) ? line : `${line}.`)).join(" ");

// The sentences that explain events[index], or none for an event that needs no explaining.
export function explain(gameType, events, index, who) {
  const event = events[index];
  try {
    if (event.type === "TrickWon") return whyTrick(gameType, events, index, who);
    if (event.type === "RoundScored") return whyRound(gameType, event.data, who);
    if (event.type === "GameEnded") return whyEnd(gameType, event.data, who);
  } catch { /* an event of a shape this page does not know: no explanation rather than none at all */ }
  return [];
}
