// The games this server hosts, as GET /game-types describes them: names, suits in the order a
// hand is sorted by, ranks shown as letters, the figures by each seat, the result chart and
// every event type. The page keeps no table of games of its own: a game registered on the
// server is drawn from this alone (its own view module, games.js's panels, is optional).

import { api } from "./api.js";

let types = [];
let loading = null;

// Loaded once for the page; a failure is not kept, so the next call asks again.
export function loadCatalog() {
  if (!loading) {
    loading = api.gameTypes().then(({ data }) => (types = data)).catch((error) => {
      loading = null;
      throw error;
    });
  }
  return loading;
}

export const gameTypes = () => types;
export const gameTypeIds = () => types.map((type) => type.id);
export const gameType = (id) => types.find((type) => type.id === id) || null;

// Every event type of every game: what a page listening to a table's stream listens for.
export const eventTypes = () => [...new Set(types.flatMap((type) => type.event_types))];

// A face card (J Q K A) is one some game with this suit shows as a letter.
export const isFaceCard = (card) =>
  types.some((type) => type.suits.includes(card.suit) && type.face_ranks.includes(card.rank));
