// "My tables": the player's tables from `GET /me/games` (most recently moved first, paged, with
// filters), each with a "your turn" badge kept live by the player's notices (`notices.js`). A
// notice newer than the list (its game's version is past the listed one) shows at once; then
// the list is read again (with its ETag: a 304 costs nothing), so the server stays the truth.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { language, t } from "./i18n.js";
import { NoticeStream } from "./notices.js";
import { offPlayer, onPlayer, player } from "./player.js";
import { queueNotice } from "./playnow.js";
import { problemText } from "./problems.js";
import { gameName } from "./words.js";

const REREAD_MS = 250; // notices come in bursts (a deal: started, then your turn)
const MAX_LIMIT = 100;

export class MyTables {
  // list: the <ul> to fill; filters: {status, mine}; more: a "More" button, or null for a
  // list of one page; said: an aria-live element for "your turn" as it arrives; onNotice: told
  // every notice too (the lobby's "Play now" waits for `match_found`).
  constructor(list, { pageSize = 20, filters = {}, more = null, said = null, onNotice = () => {} }) {
    Object.assign(this, { list, pageSize, filters, more, said, onNotice });
    this.items = [];
    this.cursor = null;
    this.etag = null;
    this.run = 0; // one more at each restart: an answer to an earlier run is dropped
    this.stream = null;
    this.timer = null;
    this.stopped = false;
    this.onVisible = () => document.visibilityState === "visible" && this.reread();
    this.onPlayer = () => this.restart(); // a new key, or another player imported
    if (more) more.onclick = () => this.next();
  }

  start() {
    onPlayer(this.onPlayer);
    document.addEventListener("visibilitychange", this.onVisible);
    this.restart();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    offPlayer(this.onPlayer);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.stream) this.stream.close();
  }

  // From the start, for this browser's player now (a new key, or another player imported).
  restart() {
    if (this.stream) this.stream.close();
    const me = player();
    this.reload(me);
    if (!me) return;
    this.stream = new NoticeStream(me, {
      onNotice: (notice) => this.notice(notice),
      onKeyRefused: () => this.refused(),
    });
    this.stream.open();
  }

  setFilters(filters) {
    this.filters = filters;
    this.reload(player());
  }

  // The first page again; answers to earlier reads are dropped.
  reload(me) {
    this.run += 1;
    this.items = [];
    this.cursor = null;
    this.etag = null;
    if (!me) return this.render(); // none yet
    this.load(me);
  }

  async load(me) {
    const run = this.run;
    try {
      const { data, etag } = await api.myGames(me.key, { ...this.filters, limit: this.pageSize });
      if (run !== this.run) return;
      Object.assign(this, { items: data.items, cursor: data.next_cursor, etag });
      this.render();
    } catch (error) {
      this.failed(error);
    }
  }

  // The next page, after the last one shown.
  async next() {
    const me = player();
    if (!me || !this.cursor) return;
    const run = this.run;
    try {
      const { data } = await api.myGames(me.key, { ...this.filters, limit: this.pageSize, cursor: this.cursor });
      if (run !== this.run) return;
      const known = new Set(this.items.map((item) => item.game_id));
      this.items.push(...data.items.filter((item) => !known.has(item.game_id)));
      this.cursor = data.next_cursor;
      this.etag = null; // the next reread covers more tables than the ETag did
      this.render();
    } catch (error) {
      this.failed(error);
    }
  }

  // The tables shown so far, read again from the start (304 while nothing listed moved).
  async reread() {
    const me = player();
    if (!me || this.stopped) return;
    const limit = Math.min(MAX_LIMIT, Math.max(this.pageSize, this.items.length));
    const run = this.run;
    try {
      const answer = await api.myGames(me.key, { ...this.filters, limit }, this.etag);
      if (answer.status === 304 || this.stopped || run !== this.run) return;
      this.items = answer.data.items;
      this.cursor = answer.data.next_cursor;
      this.etag = answer.etag;
      this.render();
    } catch (error) {
      this.failed(error);
    }
  }

  notice(notice) {
    this.onNotice(notice);
    const item = this.items.find((i) => i.game_id === notice.game_id);
    if (notice.kind === "your_turn" && item && notice.version > item.version) {
      Object.assign(item, { my_turn: true, version: notice.version });
      this.render();
      if (this.said) this.said.textContent = t("mine.your_turn_at", gameName(item.type));
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reread(), REREAD_MS);
  }

  refused() {
    replace(this.list, h("li", { role: "alert" }, t("me.key_refused"), " ", h("a", { href: "#/me" }, t("me.key_refused.fix"))));
  }

  failed(error) {
    if (error.status === 401) return this.refused();
    replace(this.list, h("li", { role: "alert" }, problemText(error)));
  }

  render() {
    if (this.stopped) return;
    replace(this.list, this.items.length ? this.items.map(tableItem) : h("li", { class: "none" }, t("lobby.none_yet")));
    if (this.more) this.more.hidden = !this.cursor;
  }
}

function tableItem(item) {
  const turn = item.my_turn;
  return h("li", { "data-game": item.game_id, "data-my-turn": String(turn), class: turn ? "my-turn" : null },
    h("a", { href: `#/games/${item.game_id}` }, gameName(item.type)),
    ` · ${t(`status.${item.status}.short`)} · ${t("lobby.seat_of", item.seat)}`,
    turn ? [" ", h("strong", { class: "turn-badge" }, t("mine.your_turn"))] : null,
    turn && item.deadline ? ` ${t("mine.until", clock(item.deadline))}` : null,
    item.status === "finished" ? [" · ", h("a", { class: "replay", href: `#/replay/${item.game_id}` }, t("lobby.replay"))] : null);
}

const clock = (when) => new Intl.DateTimeFormat(language(), { hour: "2-digit", minute: "2-digit" }).format(new Date(when));

// The page `#/tables`: every table of the player, filtered, a page at a time.
export function showMyTables(root) {
  const me = player();
  if (!me) {
    replace(root, h("section", { id: "my-tables" }, h("h1", {}, t("mine.title")),
      h("p", {}, t("mine.no_player"), " ", h("a", { href: "#/" }, t("table.back")))));
    return () => {};
  }
  const status = h("select", { id: "mine-status" },
    h("option", { value: "" }, t("mine.any_status")),
    ["waiting", "active", "finished"].map((s) => h("option", { value: s }, t(`status.${s}.short`))));
  const mine = h("input", { id: "mine-turn", type: "checkbox" });
  const list = h("ul", { id: "mine", "aria-labelledby": "my-tables-title" });
  const more = h("button", { type: "button", id: "mine-more", hidden: true }, t("mine.more"));
  const said = h("p", { id: "mine-said", class: "visually-hidden", "aria-live": "polite" });
  replace(root, h("section", { id: "my-tables" },
    h("h1", { id: "my-tables-title" }, t("mine.title")),
    h("p", {}, t("mine.as", me.name), " ", h("a", { href: "#/me" }, t("me.link"))),
    h("div", { class: "row filters" },
      h("label", { for: "mine-status" }, `${t("mine.status")} `), status,
      mine, h("label", { for: "mine-turn" }, t("mine.only_my_turn"))),
    said, list, more));
  const tables = new MyTables(list, { more, said, onNotice: queueNotice }); // a match found opens its table
  const filter = () => tables.setFilters({ status: status.value || undefined, mine: mine.checked });
  status.addEventListener("change", filter);
  mine.addEventListener("change", filter);
  tables.start();
  return () => tables.stop();
}
