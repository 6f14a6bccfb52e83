// The event log in words, in the reader's language: "log.<EventType>" in the game's words (GET
// /game-types) or the page's own text (text.<lang>.js, for the events every game shares). A
// game's view module may word an event itself (`log[EventType](data, who)`, for lines that
// depend on what the event says). `who(seat)` names a seat ("You", "Ann", "Bot 2"); data is
// the event as this viewer may see it, so a hidden card arrives here only as a count.

import { gameType, viewOf } from "./catalog.js";
import { has, inGame, t } from "./i18n.js";

// A game's name in the reader's language, else as the server names it (GET /game-types).
export const gameName = (type) => inGame(type, () => (has("game.name") ? t("game.name") : gameType(type)?.name || type));

// What the game says of itself in a line (the lobby's), or null.
export const gameAbout = (type) => inGame(type, () => (has("game.about") ? t("game.about") : null));

// A line of the log: its words get the event's fields and `who` ({seat:who} in a game's words).
export const said = (key, data, who) => t(key, { ...data, who }, who);

// `type`: the table's game, whose words and view module word its events.
export function describe(event, who, type) {
  return inGame(type, () => {
    const data = { ...(event.data || {}) };
    if (event.type === "TableCreated") data.game_type = gameName(data.game_type);
    const own = (viewOf(type).log || {})[event.type];
    const key = `log.${event.type}`;
    try {
      if (own) return own(data, who);
      return has(key) ? said(key, data, who) : t("log.other", event.type);
    } catch {
      return t("log.other", event.type); // a shape this page does not expect: still a line
    }
  });
}
