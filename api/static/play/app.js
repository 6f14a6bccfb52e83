// The reference client's entry point: picks the language, routes on the URL's fragment (so
// invites in join links never reach a server log) and exposes what it holds for inspection.

import { show as showConnection } from "./connection.js";
import { showGlossary, showRules } from "./guide.js";
import { chooseLanguage, language, preferredLanguage, t, useLanguage } from "./i18n.js";
import { lobby, showJoin, showLobby } from "./lobby.js";
import { showReplay } from "./replay.js";
import { showTable, table } from "./table.js";

const ID = "([0-9a-f-]{36})";
const ROUTES = [
  [new RegExp(`^#/games/${ID}$`), (root, id) => showTable(root, id)],
  [new RegExp(`^#/join/${ID}/(\\d+)/([A-Za-z0-9_-]+)$`), (root, id, seat, invite) => showJoin(root, id, seat, invite)],
  [new RegExp(`^#/replay/${ID}(?:/(\\d+))?$`), (root, id, version) => showReplay(root, id, version)],
  [/^#\/rules(?:\/(\w+))?$/, (root, type) => showRules(root, type)],
  [/^#\/glossary$/, (root) => showGlossary(root)],
  [/^(#\/?)?$/, (root) => showLobby(root)],
];

let leave = () => {};

function route() {
  const root = document.getElementById("main");
  leave();
  const hash = location.hash;
  for (const [pattern, show] of ROUTES) {
    const match = hash.match(pattern);
    if (match) {
      leave = show(root, ...match.slice(1)) || (() => {});
      return;
    }
  }
  location.hash = "#/";
}

// The header's own words, and the language menu showing the language in use.
function translateChrome() {
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  document.getElementById("nav").setAttribute("aria-label", t("nav.main"));
  document.getElementById("language").value = language();
  showConnection();
}

// For people (and tests) who want to check what this page holds: only what the API gave it.
window.cardroom = {
  memory: () => JSON.parse(JSON.stringify({ table: { view: table.view, events: table.events }, lobby })),
  get renderedAt() { return table.renderedAt; },
  get loggedAt() { return table.loggedAt; },
  get language() { return language(); },
};

async function start() {
  await useLanguage(preferredLanguage());
  translateChrome();
  document.getElementById("language").addEventListener("change", async (e) => {
    await chooseLanguage(e.target.value);
    translateChrome();
    route(); // every view draws itself again, in the new language
  });
  window.addEventListener("hashchange", () => {
    route();
    // A new page: the keyboard and screen readers start at its content, not the header.
    document.getElementById("main").focus({ preventScroll: true });
  });
  route();
}

start();
