// The event log in words. `who(seat)` names a seat ("You", "Ann", "Bot 2"); data is the event
// as this viewer may see it, so a hidden card arrives here only as a count.

import { cardList, cardName } from "./cards.js";

const GAME_NAMES = {
  st_patrick: "St Patrick",
  ouroboros_trick: "Ouroboros Trick",
  trick_and_snipers: "Trick & Snipers",
  saint_poker: "Saint Poker",
};

export const gameName = (type) => GAME_NAMES[type] || type;

const cardsOrCount = (data) =>
  data.cards ? cardList(data.cards) : `${data.count} card${data.count === 1 ? "" : "s"}`;

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function perSeat(values, who, unit) {
  return values.map((value, seat) => `${who(seat)} ${value}${unit}`).join(", ");
}

const SAY = {
  TableCreated: (d) => `Table created: ${gameName(d.game_type)} for ${d.seats.length} players.`,
  SeatJoined: (d, who) => `${who(d.seat)} sat down at seat ${d.seat}.`,
  SeatLeft: (d, who) => `${who(d.seat)} left (${d.reason}); a bot plays that seat now.`,
  TurnTimedOut: (d, who) =>
    `${who(d.seat)} ran out of time (${plural(d.count, "timeout")} in a row); the server moved.`,
  FixedDecksChosen: () => "Test decks chosen.",
  DealCommitted: (d, who) =>
    `Round ${d.round} dealt (deal commitment ${d.commitment.slice(0, 12)}…)` +
    (d.first_leader === null || d.first_leader === undefined ? "." : `; ${who(d.first_leader)} leads.`),
  HandDealt: (d, who) => `${who(d.seat)} got ${cardsOrCount(d)}.`,
  DeckSealed: (d) => (d.deck ? `The deck of round ${d.round} is revealed.` : `The deck of round ${d.round} is sealed.`),
  PassCountAwaited: (d, who) => `${who(d.chooser)} chooses how many cards to pass.`,
  PassCountSet: (d, who) =>
    `${plural(d.count, "card")} to pass` + (d.seat === null || d.seat === undefined ? "." : `, chosen by ${who(d.seat)}.`),
  CardsPassed: (d, who) => `${who(d.seat)} passed ${cardsOrCount(d)}.`,
  CardsReceived: (d, who) => `${who(d.seat)} received ${cardsOrCount(d)} from ${who(d.from_seat)}.`,
  HandPassed: (d, who) => `${who(d.seat)} received ${cardsOrCount(d)} from ${who(d.from_seat)}.`,
  RelicPhaseStarted: (d, who) => `Relics: ${who(d.starter)} decides first.`,
  RelicsTaken: (d, who) => `${who(d.seat)} took ${plural(d.count, "relic")} (${d.left} left).`,
  RelicsDeclined: (d, who) => `${who(d.seat)} took no relics.`,
  RelicsCursed: (d, who) => `Curse ${d.curse}: ${perSeat(d.losses.map((l) => -l), who, " life")}.`,
  HuntStarted: (d, who) => `The hunt begins${d.special ? " (a special hunt)" : ""}; ${who(d.leader)} leads.`,
  CardPlayed: (d, who) => `${who(d.seat)} played ${cardName(d.card)}${d.snipe ? ": a snipe!" : "."}`,
  TrickWon: (d, who) => {
    let text = `${who(d.seat)} won the trick`;
    if (d.bites) text += ` and ${plural(d.bites, "bite")}`;
    if (d.point_to !== undefined && d.point_to !== null) text += `; ${who(d.point_to)} scores a point`;
    if (d.discard_count) text += `; discards ${d.discard_count}`;
    return `${text}.`;
  },
  DiscardAwaited: (d, who) => `${who(d.seat)} must discard ${plural(d.count, "card")}.`,
  CardsDiscarded: (d, who) => `${who(d.seat)} discarded ${cardsOrCount(d)}${d.forced ? " (forced)" : ""}.`,
  PoolTaken: (d, who) => `${who(d.seat)} took their pool as a new hand (${cardsOrCount(d)}).`,
  RoundStarted: (d) => `Round ${d.round}: the river shows ${cardList(d.river)}.`,
  RiverCardCommitted: (d, who) =>
    `${who(d.seat)} put ${d.card ? cardName(d.card) : "a card"} toward the river.`,
  RiverCompleted: (d) => `The river is complete: ${cardList(d.cards)}.`,
  RevealChosen: (d, who) => `${who(d.seat)} chose ${d.cards ? cardList(d.cards) : "two cards"} to reveal.`,
  CardsRevealed: (d, who) =>
    `Revealed: ${d.cards.map((cards, seat) => `${who(seat)} ${cardList(cards)}`).join("; ")}.`,
  RoundScored: (d, who) => {
    if (d.life) return `Round ${d.round} scored: life ${perSeat(d.life, who, "")}.`;
    if (d.points) return `Round ${d.round} scored: ${perSeat(d.points, who, " points")}.`;
    return `Round ${d.round} scored.`;
  },
  CardPickedUp: (d, who) => `${who(d.seat)} picked up ${cardName(d.card)}.`,
  RoundEnded: (d) =>
    `Round ${d.round} ended` + (d.discarded ? `; ${cardList(d.discarded)} discarded.` : "."),
  GameEnded: (d, who) =>
    d.winners.length ? `Game over: ${d.winners.map(who).join(" and ")} won.` : "Game over: nobody won.",
};

// "SomethingHappened" → "Something happened." for a type this page does not know yet.
const fallback = (type) => `${type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()}.`;

export function describe(event, who) {
  const say = SAY[event.type];
  try {
    return say ? say(event.data || {}, who) : fallback(event.type).replace(/^./, (c) => c.toUpperCase());
  } catch {
    return fallback(event.type);
  }
}

export const EVENT_TYPES = Object.keys(SAY);
