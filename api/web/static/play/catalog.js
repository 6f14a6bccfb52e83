// The games this server hosts, as GET /game-types describes them: names, suits in the order a
// hand is sorted by, ranks shown as letters, the figures by each seat, the result chart, every
// event type, each game's own words and its own view module. The page keeps no table of games
// and no words of a game of its own: a game registered on the server is drawn from this alone,
// with its view module's hooks where it has one (games/<id>.js, optional; see games.js).

import { api } from "./api.js";
import { setGameWords } from "./i18n.js";

let types = [];
let loading = null;
const views = new Map(); // game id → its view module
const NONE = Object.freeze({});

// A game's view module, loaded with the catalog; one that fails to load leaves its game drawn
// as any game is, from GET /game-types alone.
const loadView = (type) => (type.view
  ? import(type.view).then((module) => views.set(type.id, module)).catch(() => {})
  : null);

// Loaded once for the page (resolves to the types); a failure is not kept, so the next call
// asks again.
export function loadCatalog() {
  if (!loading) {
    loading = api.gameTypes().then(async ({ data }) => {
      await Promise.all(data.map(loadView));
      setGameWords(data);
      types = data;
      return types;
    }).catch((error) => {
      loading = null;
      throw error;
    });
  }
  return loading;
}

export const gameTypes = () => types;
export const gameTypeIds = () => types.map((type) => type.id);
export const gameType = (id) => types.find((type) => type.id === id) || null;

// The hooks of a game's view module (`panel`, `seatCards`, `why`, `log`…), each optional: a
// game with no module has none.
export const viewOf = (id) => views.get(id) || NONE;

// Every event type of every game: what a page listening to a table's stream listens for.
export const eventTypes = () => [...new Set(types.flatMap((type) => type.event_types))];

// A face card (J Q K A) is one some game with this suit shows as a letter.
export const isFaceCard = (card) =>
  types.some((type) => type.suits.includes(card.suit) && type.face_ranks.includes(card.rank));
