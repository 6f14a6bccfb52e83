// The event log in words, in the reader's language (text.<lang>.js, keys "log.<EventType>").
// `who(seat)` names a seat ("You", "Ann", "Bot 2"); data is the event as this viewer may see
// it, so a hidden card arrives here only as a count.

import { gameType } from "./catalog.js";
import { has, t } from "./i18n.js";

// A game's name in the reader's language, else as the server names it (GET /game-types).
export const gameName = (type) => (has(`game.${type}`) ? t(`game.${type}`) : gameType(type)?.name || type);

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
