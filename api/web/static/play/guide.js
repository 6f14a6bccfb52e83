// "How to play": each game's guide (/play/guides/<game>.<lang>.md, from the game's folder, the
// same text as docs/rules/guides/) as a page of its own (#/rules/<game>, reachable from the
// lobby and the header) and as a panel on the table that loads when opened; and the glossary
// (#/glossary).

import { h, replace } from "./dom.js";
import { language, t } from "./i18n.js";
import { glossaryText, parseGlossary } from "./terms.js";
import { gameTypeIds } from "./catalog.js";
import { gameName } from "./words.js";

const cache = new Map();

function guideText(type) {
  const key = `${type}.${language()}`;
  if (!cache.has(key)) {
    cache.set(key, fetch(`/play/guides/${key}.md`, { credentials: "omit" }).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    }).catch((error) => {
      cache.delete(key);
      throw error;
    }));
  }
  return cache.get(key);
}

// The guide's own "# Title" is the page's h1 already: dropped, the rest one level down.
// aria-busy tells screen readers (and tests) when the placeholder has given way to the guide.
async function fillGuide(box, type, headingLevel) {
  box.setAttribute("aria-busy", "true");
  replace(box, h("p", {}, t("guide.loading")));
  try {
    const [markdown, text] = await Promise.all([import("./markdown.js"), guideText(type)]);
    replace(box, markdown.render(text.replace(/^# .*\n/, ""), { headingLevel }));
  } catch {
    replace(box, h("p", { role: "alert" }, t("guide.missing")));
  }
  box.setAttribute("aria-busy", "false");
}

const otherGuides = (current) => h("nav", { class: "guides", "aria-label": t("guide.all") },
  h("span", {}, t("guide.pick"), " "),
  gameTypeIds().map((type) => [type === current
    ? h("a", { href: `#/rules/${type}`, "aria-current": "page" }, gameName(type))
    : h("a", { href: `#/rules/${type}` }, gameName(type)), " "]),
  h("a", { href: "#/glossary" }, t("glossary.title")));

export function showRules(root, type) {
  if (!gameTypeIds().includes(type)) type = gameTypeIds()[0];
  const body = h("div", { class: "guide-body" });
  replace(root, h("article", { id: "guide", "data-game": type },
    h("h1", {}, t("guide.title", gameName(type))), otherGuides(type), body));
  fillGuide(body, type, 1); // "## Section" becomes an h2 under the page's h1
  return () => {};
}

export function showGlossary(root) {
  const body = h("div", { class: "glossary-body" }, h("p", {}, t("guide.loading")));
  replace(root, h("article", { id: "glossary" },
    h("h1", { id: "glossary-title" }, t("glossary.title")), h("p", {}, t("glossary.intro")), otherGuides(null), body));
  glossaryText().then((text) => {
    const sections = new Map();
    for (const [key, entry] of parseGlossary(text)) {
      if (!sections.has(entry.section)) sections.set(entry.section, []);
      sections.get(entry.section).push([key, entry]);
    }
    replace(body, [...sections].map(([section, entries]) => h("section", {},
      h("h2", {}, section),
      h("dl", {}, entries.map(([key, entry]) => h("div", { class: "entry", id: `term-${key}`, tabindex: "-1" },
        h("dt", {}, entry.term), h("dd", {}, entry.text)))))));
  }).catch(() => replace(body, h("p", { role: "alert" }, t("guide.missing"))));
  return () => {};
}

// The table's panel: closed at first, the guide fetched the first time it opens.
export function guidePanel(type) {
  const body = h("div", { class: "guide-body" });
  const panel = h("details", { id: "how-to-play", class: "how-to-play" },
    h("summary", {}, t("table.how_to_play", gameName(type))), body);
  panel.addEventListener("toggle", () => {
    if (panel.open && !body.firstChild) fillGuide(body, type, 2); // "##": h3, under the table's h2s
  });
  return panel;
}
