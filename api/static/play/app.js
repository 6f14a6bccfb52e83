// The reference client's entry point: routes on the URL's fragment (so invites in join links
// never reach a server log) and exposes what it holds for inspection.

import { lobby, showJoin, showLobby } from "./lobby.js";
import { showTable, table } from "./table.js";

const ROUTES = [
  [/^#\/games\/([0-9a-f-]{36})$/, (root, id) => showTable(root, id)],
  [/^#\/join\/([0-9a-f-]{36})\/(\d+)\/([A-Za-z0-9_-]+)$/, (root, id, seat, invite) => showJoin(root, id, seat, invite)],
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

// For people (and tests) who want to check what this page holds: only what the API gave it.
window.cardroom = {
  memory: () => JSON.parse(JSON.stringify({ table: { view: table.view, events: table.events }, lobby })),
  get renderedAt() { return table.renderedAt; },
  get loggedAt() { return table.loggedAt; },
};

window.addEventListener("hashchange", route);
route();
