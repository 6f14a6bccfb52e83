// The event log in words, in the reader's language (text.<lang>.js, keys "log.<EventType>").
// `who(seat)` names a seat ("You", "Ann", "Bot 2"); data is the event as this viewer may see
// it, so a hidden card arrives here only as a count.

import { has, t } from "./i18n.js";

export const GAME_TYPES = ["st_patrick", "ouroboros_trick", "trick_and_snipers", "saint_poker"];
export const gameName = (type) => (has(`game.${type}`) ? t(`game.${type}`) : type);

// Every event type this page words: the stream listens for exactly these.
export const EVENT_TYPES = [
  "TableCreated", "SeatJoined", "SeatLeft", "TurnTimedOut", "FixedDecksChosen", "DealCommitted",
  "HandDealt", "DeckSealed", "PassCountAwaited", "PassCountSet", "CardsPassed", "CardsReceived",
  "HandPassed", "RelicPhaseStarted", "RelicsTaken", "RelicsDeclined", "RelicsCursed",
  "HuntStarted", "CardPlayed", "TrickWon", "DiscardAwaited", "CardsDiscarded", "PoolTaken",
  "RoundStarted", "RiverCardCommitted", "RiverCompleted", "RevealChosen", "CardsRevealed",
  "RoundScored", "CardPickedUp", "RoundEnded", "GameEnded",
];

export function describe(event, who) {
  const data = { ...(event.data || {}) };
  if (event.type === "TableCreated") data.game_type = gameName(data.game_type);
  const key = `log.${event.type}`;
  try {
    return has(key) ? t(key, data, who) : t("log.other", event.type);
  } catch {
    return t("log.other", event.type); // a shape this page does not expect: still a line
  }
}
