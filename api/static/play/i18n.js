// The page's language: English or French, following the browser until the reader picks one in
// the header (kept in localStorage). Strings live in text.<lang>.js, loaded on demand so a page
// carries one language only; numbers and plurals go through Intl in those files.

export const LANGUAGES = ["en", "fr"];
const KEY = "cardroom.lang";
let strings = {};
let current = "en";
const listeners = new Set();

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

// t("figure.relics", 3) → "3 relics"; a missing key shows itself rather than nothing.
export function t(key, ...args) {
  const value = strings[key];
  if (value === undefined) return key;
  return typeof value === "function" ? value(...args) : value;
}

export const has = (key) => strings[key] !== undefined;
