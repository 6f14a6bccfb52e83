// Game terms that explain themselves: the glossary (guides/glossary.<lang>.md, one line a term:
// "- **Relic**: what it is. <!-- relic -->") is read once per language, and `term(key, text)`
// draws `text` as a button whose definition shows on hover, on focus (keyboard) and on tap, and
// is its accessible description. Escape hides it again.

import { h } from "./dom.js";
import { language } from "./i18n.js";

const loaded = new Map(); // language → Promise of Map(key → {term, text})
let glossary = new Map();
let serial = 0;

export function parseGlossary(markdown) {
  const terms = new Map();
  let section = "";
  for (const line of markdown.split("\n")) {
    const heading = line.match(/^##\s+(.*)$/);
    if (heading) section = heading[1].trim();
    const entry = line.match(/^- \*\*(.+?)\*\*: (.*?)\s*<!-- ([\w-]+) -->\s*$/);
    if (entry) terms.set(entry[3], { term: entry[1], text: entry[2].replace(/\*\*|\*|`/g, ""), section });
  }
  return terms;
}

export function glossaryText(lang = language()) {
  return fetch(`/play/guides/glossary.${lang}.md`, { credentials: "omit" })
    .then((response) => (response.ok ? response.text() : ""));
}

// Loads the glossary of the page's language (once); resolves to it.
export function loadGlossary() {
  const lang = language();
  if (!loaded.has(lang)) {
    loaded.set(lang, glossaryText(lang).then(parseGlossary).catch(() => new Map()));
  }
  return loaded.get(lang).then((terms) => {
    if (lang === language()) glossary = terms;
    return terms;
  });
}

export const definition = (key) => glossary.get(key);

export function term(key, text, extraClass = "") {
  const entry = glossary.get(key);
  if (!entry) return h("span", { class: extraClass || null }, text);
  const id = `tip-${key}-${++serial}`;
  const button = h("button", {
    type: "button",
    class: `term ${extraClass}`.trim(),
    "data-term": key,
    "aria-describedby": id,
    "aria-expanded": "false",
    onclick: (e) => {
      const open = button.getAttribute("aria-expanded") !== "true";
      closeAll();
      button.setAttribute("aria-expanded", String(open));
      e.stopPropagation();
    },
    onkeydown: (e) => {
      if (e.key === "Escape") {
        button.setAttribute("aria-expanded", "false");
        button.classList.add("quiet"); // hidden until the focus leaves and comes back
      }
    },
    onblur: () => {
      button.classList.remove("quiet");
      button.setAttribute("aria-expanded", "false");
    },
  }, text);
  return h("span", { class: "term-wrap" }, button, h("span", { role: "tooltip", id, class: "tip" }, entry.text));
}

function closeAll() {
  for (const open of document.querySelectorAll('button.term[aria-expanded="true"]')) {
    open.setAttribute("aria-expanded", "false");
  }
}

document.addEventListener("click", closeAll);
