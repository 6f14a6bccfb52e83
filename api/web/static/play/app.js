// The reference client's entry point: picks the language, routes on the URL's fragment (so
// invites in join links never reach a server log) and exposes what it holds for inspection.
// Each page's module is loaded when that page is first shown, so a page carries only its own.

import { loadCatalog } from "./catalog.js";
import { show as showConnection } from "./connection.js";
import { chooseLanguage, language, preferredLanguage, t, useGame, useLanguage } from "./i18n.js";
import { onPlayer, player } from "./player.js";

const ID = "([0-9a-f-]{36})";
const loaded = {}; // the modules shown so far, by name: memory() reads what they hold
const page = (name) => import(`./${name}.js`).then((module) => (loaded[name] = module));

const ROUTES = [
  [new RegExp(`^#/games/${ID}$`), "table", (m, root, id) => m.showTable(root, id)],
  [new RegExp(`^#/join/${ID}/(\\d+)/([A-Za-z0-9_-]+)$`), "lobby", (m, root, id, seat, invite) => m.showJoin(root, id, seat, invite)],
  [new RegExp(`^#/replay/${ID}(?:/(\\d+))?$`), "replay", (m, root, id, version) => m.showReplay(root, id, version)],
  [/^#\/rules(?:\/(\w+))?$/, "guide", (m, root, type) => m.showRules(root, type)],
  [/^#\/glossary$/, "guide", (m, root) => m.showGlossary(root)],
  [/^#\/me$/, "me", (m, root) => m.showMe(root)],
  [/^#\/tables$/, "mine", (m, root) => m.showMyTables(root)],
  [/^#\/leaderboard(?:\/(\w+))?$/, "leaderboard", (m, root, type) => m.showLeaderboard(root, type)],
  [/^(#\/?)?$/, "lobby", (m, root) => m.showLobby(root)],
];

let leave = () => {};
let turn = 0;

async function route() {
  const root = document.getElementById("main");
  const mine = ++turn;
  leave();
  leave = () => {};
  useGame(null); // a page about one game says so itself (a table, a replay)
  const hash = location.hash;
  for (const [pattern, name, show] of ROUTES) {
    const match = hash.match(pattern);
    if (match) {
      const module = await page(name);
      if (mine !== turn) return; // the reader moved on while it loaded: the later route draws
      leave = show(module, root, ...match.slice(1)) || (() => {});
      return;
    }
  }
  location.hash = "#/";
}

// The header's own words, and the language menu showing the language in use.
function translateChrome() {
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  showWho();
  document.getElementById("nav").setAttribute("aria-label", t("nav.main"));
  document.getElementById("language").value = language();
  showConnection();
}

// For people (and tests) who want to check what this page holds: only what the API gave it.
const table = () => (loaded.table ? loaded.table.table : { view: null, events: [], renderedAt: {}, loggedAt: {} });
window.cardroom = {
  memory: () => JSON.parse(JSON.stringify({
    table: { view: table().view, events: table().events },
    lobby: loaded.lobby ? loaded.lobby.lobby : { types: [], waiting: [] },
  })),
  get renderedAt() { return table().renderedAt; },
  get loggedAt() { return table().loggedAt; },
  get language() { return language(); },
};

// Who this browser plays as, in the header: a link to the player's page.
function showWho() {
  const me = player();
  document.getElementById("who").textContent = me ? t("nav.who", me.name) : t("nav.no_player");
  document.getElementById("tables-link").hidden = !me;
}

async function start() {
  // The games' descriptions first: every page draws its games from them. Unreachable, the
  // pages still draw (the lobby says it cannot load the games).
  await Promise.all([useLanguage(preferredLanguage()), loadCatalog().catch(() => {})]);
  translateChrome();
  onPlayer(showWho);
  document.getElementById("language").addEventListener("change", async (e) => {
    await chooseLanguage(e.target.value);
    translateChrome();
    route(); // every view draws itself again, in the new language
  });
  window.addEventListener("hashchange", async () => {
    await route();
    // A new page: the keyboard and screen readers start at its content, not the header.
    document.getElementById("main").focus({ preventScroll: true });
  });
  await route();
}

start();
