// The leaderboards (`#/leaderboard/<type>`): one per game type, from `GET /leaderboards/{type}`,
// best displayed rating first, a page at a time ("More players" follows the server's cursor).
// Only ratings past their provisional games are listed (the server decides): a type nobody
// has played enough rated games of shows an empty state that says how to get on it.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { player } from "./player.js";
import { problemText } from "./problems.js";
import { gameTypeIds } from "./catalog.js";
import { gameName } from "./words.js";

const PAGE = 20;

export function showLeaderboard(root, type = gameTypeIds()[0]) {
  const known = gameTypeIds().includes(type);
  const rows = h("tbody", { id: "board-rows" });
  const more = h("button", { type: "button", id: "board-more", hidden: true }, t("board.more"));
  const empty = h("p", { id: "board-empty", hidden: true }, t("board.empty", gameName(type)), " ",
    h("a", { href: "#/" }, t("board.empty_how")));
  const problem = h("p", { id: "board-problem", role: "alert", hidden: true });
  const table = h("table", { id: "board", "data-type": type, "aria-busy": "true" },
    h("caption", {}, t("board.caption", gameName(type))),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, t("board.rank")),
      h("th", { scope: "col" }, t("board.player")),
      h("th", { scope: "col", class: "num" }, t("board.rating")),
      h("th", { scope: "col", class: "num" }, t("board.games")))),
    rows);
  replace(root, h("section", { id: "leaderboard" },
    h("h1", {}, t("board.title")),
    h("nav", { class: "tabs", "aria-label": t("board.types") }, gameTypeIds().map((id) =>
      h("a", { href: `#/leaderboard/${id}`, "data-type": id, "aria-current": id === type ? "page" : null }, gameName(id)))),
    h("p", { class: "note" }, t("board.about")),
    known ? [table, empty, more] : h("p", { id: "board-unknown" }, t("board.unknown")),
    problem));
  if (!known) return () => {};
  const board = { left: false, cursor: null };
  const load = async (next = false) => {
    more.disabled = true;
    try {
      const { data } = await api.leaderboard(type, board.cursor, PAGE);
      if (board.left) return;
      const added = data.items.map(row);
      rows.append(...added);
      // The keyboard goes on from the first player just shown, not from a button now gone.
      if (next && added.length) added[0].querySelector("th").focus();
      board.cursor = data.next_cursor;
      empty.hidden = rows.children.length > 0;
      table.hidden = rows.children.length === 0;
      problem.hidden = true;
    } catch (error) {
      if (board.left) return;
      problem.hidden = false;
      problem.textContent = problemText(error);
    }
    table.setAttribute("aria-busy", "false");
    more.hidden = !board.cursor;
    more.disabled = false;
  };
  more.onclick = () => load(true);
  load();
  return () => (board.left = true);
}

// A bot level is a rated player of its own; its name is said in the reader's language.
function row(item) {
  const me = player();
  const mine = Boolean(me && me.id === item.player_id);
  const name = item.bot ? t("board.bot", item.bot) : item.name;
  return h("tr", { "data-player": item.player_id, "data-rank": item.rank, class: mine ? "you" : null },
    h("td", { class: "num" }, t("count", item.rank)),
    h("th", { scope: "row", tabindex: -1 }, name, mine ? ` ${t("board.you")}` : null),
    h("td", { class: "num" }, t("board.display", item.display)),
    h("td", { class: "num" }, t("count", item.games)));
}
