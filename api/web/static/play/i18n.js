// The page's language: English or French, following the browser until the reader picks one in
// the header (kept in localStorage). The page's own strings, which every game shares, live in
// text.<lang>.js, loaded on demand so a page carries one language only; numbers and plurals go
// through Intl in those files. Each game's own words come from its folder through GET
// /game-types (`words`: language → key → text, set here by catalog.js): while a game is drawn
// (`useGame` for a page about one game, `inGame` for one drawing) its words are looked up first.

export const LANGUAGES = ["en", "fr"];
const KEY = "cardroom.lang";
let strings = {};
let current = "en";
const listeners = new Set();
let gameWords = new Map(); // game id → { language → { key → text } }
let game = null; // the game whose words come first

// The stored choice, else the first of the browser's languages this page speaks, else English.
export function preferredLanguage() {
  try {
    const kept = localStorage.getItem(KEY);
    if (LANGUAGES.includes(kept)) return kept;
  } catch { /* storage refused: follow the browser */ }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function useLanguage(lang) {
  const chosen = LANGUAGES.includes(lang) ? lang : "en";
  strings = (await import(`./text.${chosen}.js`)).default;
  current = chosen;
  document.documentElement.lang = chosen;
  listeners.forEach((listener) => listener(chosen));
}

// The reader's choice in the header: kept, then every view draws itself again.
export async function chooseLanguage(lang) {
  try {
    localStorage.setItem(KEY, lang);
  } catch { /* not kept, but still used */ }
  await useLanguage(lang);
}

export const language = () => current;
export const onLanguage = (listener) => listeners.add(listener);

// The games' own words, as GET /game-types publishes them.
export function setGameWords(types) {
  gameWords = new Map(types.map((type) => [type.id, type.words || {}]));
}

// The game a page is about (a table, a replay), or null (the router clears it on each page).
export const useGame = (type) => {
  game = type || null;
};
export const currentGame = () => game;

// `draw()` with `type`'s words first: for a page that shows several games (the lobby), or a
// drawing asked for one game whatever the page's.
export function inGame(type, draw) {
  const before = game;
  game = type || null;
  try {
    return draw();
  } finally {
    game = before;
  }
}

// Where a key is said: the current game's words in the page's language, the page's own text,
// the game's words in English; none (null) when no one says it.
function find(key) {
  const words = game ? gameWords.get(game) : null;
  if (words && words[current] && words[current][key] !== undefined) return { text: words[current][key], lang: current };
  if (strings[key] !== undefined) return { value: strings[key] };
  if (words && words.en && words.en[key] !== undefined) return { text: words.en[key], lang: "en" };
  return null;
}

// t("figure.relics", 3) → "3 relics"; a missing key shows itself rather than nothing.
export function t(key, ...args) {
  const found = find(key);
  if (!found) return key;
  if ("text" in found) return fill(found.text, args, found.lang);
  return typeof found.value === "function" ? found.value(...args) : found.value;
}

export const has = (key) => find(key) !== null;

// A game's words are text with placeholders (docs/frontend.md, "A game's words"):
//   {0} {1}…      the arguments, in order; {name} a field of the first (a log line's event data);
//                 a number is written the language's way, a list as "a, b and c"
//   {x:format}    x written by `format`: a function the first argument holds (a log line's `who`),
//                 else the page's own string of that key ("card", "cards", "card.the", …)
//   {x|one|other} the word that agrees with the number x (or the length of the list x)
const PLACE = /\{(\w+(?:\.\w+)*)(?::([\w.]+)|((?:\|[^{}|]*)+))?\}/g;

function argument(args, name) {
  const [first, ...rest] = name.split(".");
  let value = /^\d+$/.test(first) ? args[Number(first)] : scope(args)[first];
  for (const field of rest) value = value === null || value === undefined ? value : value[field];
  return value;
}

const scope = (args) => (args[0] && typeof args[0] === "object" && !Array.isArray(args[0]) ? args[0] : {});

function written(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return t("count", value);
  if (Array.isArray(value)) return t("list", value.map(written));
  return String(value);
}

function fill(text, args, lang) {
  return text.replace(PLACE, (_, name, format, forms) => {
    const value = argument(args, name);
    if (format) {
      const own = scope(args)[format];
      return typeof own === "function" ? own(value) : t(format, value);
    }
    if (forms) {
      const [one, other] = forms.slice(1).split("|");
      const count = Array.isArray(value) ? value.length : Number(value);
      return new Intl.PluralRules(lang).select(count) === "one" || other === undefined ? one : other;
    }
    return written(value);
  });
}
