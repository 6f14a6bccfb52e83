// The replay viewer of a finished game (#/replay/<id>/<version>): the table as it stood after
// each event (GET /games/{id}/replay?version=N: the game being over, every seat's hand shows
// by its seat), stepped forwards and backwards or jumped to, with every step in a list of links, the
// outcome of each step explained, and a badge saying whether the history verifies (verify.js).

import { allEvents, api } from "./api.js";
import { seatItems, seatName, stateView, trickView } from "./board.js";
import { chart, seriesOf } from "./chart.js";
import { h, replace } from "./dom.js";
import { t, useGame } from "./i18n.js";
import { explain } from "./outcomes.js";
import { problemText } from "./problems.js";
import { seatOf } from "./seats.js";
import { loadGlossary } from "./terms.js";
import { verifyEvents, verifyHead } from "./verify.js";
import { describe, gameName } from "./words.js";

const games = new Map(); // game → Promise of {game, events} (a finished game's never change)
const link = (gameId, version) => `#/replay/${gameId}/${version}`;

export function showReplay(root, gameId, version) {
  const page = new ReplayPage(root, gameId, version ? Number(version) : null);
  page.start();
  return () => page.stop();
}

class ReplayPage {
  constructor(root, gameId, version) {
    this.root = root;
    this.gameId = gameId;
    this.version = version;
    this.views = new Map();
    this.token = seatOf(gameId)?.token || null;
    this.stopped = false;
  }

  stop() {
    this.stopped = true;
  }

  async start() {
    replace(this.root, h("section", { id: "replay", "data-game": this.gameId }, h("p", {}, t("replay.loading"))));
    const glossary = loadGlossary();
    if (!games.has(this.gameId)) games.set(this.gameId, loadGame(this.gameId));
    try {
      ({ game: this.game, events: this.events } = await games.get(this.gameId));
    } catch (error) {
      games.delete(this.gameId);
      return this.fail(problemText(error));
    }
    if (this.game.status !== "finished") {
      games.delete(this.gameId);
      return this.fail(t("replay.not_over"), true);
    }
    await glossary;
    if (this.stopped) return;
    this.total = this.game.version;
    this.type = this.game.type;
    useGame(this.type); // the page speaks this game's words first
    this.layout();
    await this.goto(Math.min(Math.max(this.version || this.total, 1), this.total), false);
    this.verify();
  }

  fail(text, toTable = false) {
    if (this.stopped) return; // the reader has gone elsewhere meanwhile
    replace(this.root, h("section", { id: "replay", "data-game": this.gameId },
      h("h1", {}, t("replay.heading")), h("p", { id: "problem", role: "alert" }, text),
      h("p", {}, toTable ? [h("a", { href: `#/games/${this.gameId}` }, t("replay.to_table")), " · "] : null,
        h("a", { href: "#/" }, t("table.back")))));
  }

  layout() {
    const button = (id, label, to) => h("button", { type: "button", id, onclick: () => this.goto(to()) }, label);
    this.jump = h("input", { id: "jump", type: "number", inputmode: "numeric", min: 1, max: this.total, required: true });
    // ← and → step back and forth from anywhere in the viewer but the version box.
    const keys = (e) => {
      if (e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "ArrowLeft") this.goto(this.version - 1);
      else if (e.key === "ArrowRight") this.goto(this.version + 1);
      else return;
      e.preventDefault();
    };
    replace(this.root, h("section", { id: "replay", "data-game": this.gameId, "data-total": this.total, onkeydown: keys },
      h("header", { class: "table-head" },
        h("h1", {}, t("replay.title", gameName(this.type))),
        h("div", { id: "verified", class: "badge checking", role: "status" }, t("verify.checking"))),
      h("p", { id: "replay-step", "aria-live": "polite" }),
      h("div", { class: "replay-controls" },
        button("first", `« ${t("replay.first")}`, () => 1),
        button("back", `◀ ${t("replay.back")}`, () => this.version - 1),
        button("forward", `${t("replay.forward")} ▶`, () => this.version + 1),
        button("last", `${t("replay.last")} »`, () => this.total),
        h("form", { class: "jump", onsubmit: (e) => { e.preventDefault(); this.goto(Number(this.jump.value)); } },
          h("label", { for: "jump" }, `${t("replay.version")} `), this.jump, ` ${t("replay.of", this.total)} `,
          h("button", { type: "submit", id: "go" }, t("replay.go")))),
      h("p", { class: "share" }, h("a", { id: "share-link", href: "" }, t("replay.share")), " ",
        h("button", { type: "button", class: "copy", onclick: () => navigator.clipboard?.writeText(this.shareLink()) }, t("table.copy"))),
      h("div", { id: "replay-event", class: "replay-event" }),
      h("div", { class: "board" },
        h("section", { class: "trick-area", "aria-label": t("table.trick_area") }, h("div", { id: "trick" })),
        h("section", { id: "game-state", "aria-label": t("table.state") })),
      h("ul", { id: "seats", "aria-label": t("table.seats") }),
      h("section", { id: "result", hidden: true, "aria-labelledby": "winners" }),
      h("details", { class: "log moves", open: true }, h("summary", {}, t("replay.moves")),
        h("ol", { id: "moves" }, this.events.map((event) => h("li", { "data-version": event.version },
          h("a", { href: link(this.gameId, event.version), onclick: (e) => { e.preventDefault(); this.goto(event.version); } },
            describe(event, (s) => this.name(s), this.type))))))));
  }

  name(seat) {
    return seat === null || seat === undefined ? t("who.nobody") : seatName(this.game, seat);
  }

  shareLink() {
    return `${location.origin}/play${link(this.gameId, this.version)}`;
  }

  async view(version) {
    if (!this.views.has(version)) {
      const asked = api.replay(this.gameId, version, this.token).catch((error) => {
        if (error.status !== 401 || !this.token) throw error;
        this.token = null; // a seat since left or given a new token: watch as a spectator
        return api.replay(this.gameId, version, null);
      });
      this.views.set(version, asked.then((r) => r.data).catch((error) => {
        this.views.delete(version);
        throw error;
      }));
    }
    return this.views.get(version);
  }

  async goto(version, focusKept = true) {
    if (!Number.isInteger(version) || version < 1 || version > this.total || this.stopped) return;
    this.version = version;
    history.replaceState(null, "", link(this.gameId, version)); // the address is the share link
    let view;
    try {
      view = await this.view(version);
    } catch (error) {
      return replace(this.root.querySelector("#replay-event"), h("p", { role: "alert" }, problemText(error)));
    }
    if (this.stopped || version !== this.version) return; // a later step was asked for meanwhile
    this.render(view, focusKept);
  }

  render(view, focusKept) {
    const root = this.root.querySelector("#replay");
    const version = this.version;
    root.dataset.version = version;
    const who = (s) => this.name(s);
    const event = this.events[version - 1];
    const why = explain(this.type, this.events, version - 1, who);
    this.root.querySelector("#replay-step").textContent = t("replay.step", version, this.total);
    this.jump.value = version;
    this.root.querySelector("#first").disabled = this.root.querySelector("#back").disabled = version <= 1;
    this.root.querySelector("#forward").disabled = this.root.querySelector("#last").disabled = version >= this.total;
    this.root.querySelector("#share-link").href = this.shareLink();
    replace(this.root.querySelector("#replay-event"), h("p", { class: "said" }, describe(event, who, this.type)),
      why.length ? h("ul", { class: "why" }, why.map((line) => h("li", {}, line))) : null);
    replace(this.root.querySelector("#trick"), trickView(view, who));
    replace(this.root.querySelector("#game-state"), stateView(view, who));
    replace(this.root.querySelector("#seats"), seatItems(view, null));
    for (const item of this.root.querySelectorAll("#moves li")) {
      const current = Number(item.dataset.version) === version;
      item.classList.toggle("current", current);
      if (current) item.firstChild.setAttribute("aria-current", "step");
      else item.firstChild.removeAttribute("aria-current");
    }
    const current = this.root.querySelector("#moves li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
    this.renderResult(view);
    if (!focusKept) this.root.querySelector("#replay h1").focus?.();
  }

  renderResult(view) {
    const box = this.root.querySelector("#result");
    const ended = this.events.findIndex((e) => e.type === "GameEnded");
    box.hidden = !(ended >= 0 && this.version >= ended + 1);
    if (box.hidden) return;
    const name = (s) => this.name(s);
    const { winners } = this.events[ended].data;
    replace(box, h("h2", { id: "winners" }, winners.length ? t("result.won", winners.map(name)) : t("result.nobody")),
      h("ul", { class: "why-end" }, explain(this.type, this.events, ended, name).map((line) => h("li", {}, line))),
      chart(seriesOf(this.type, this.events, view.seats.length), view.seats.map((s) => name(s.seat))));
  }

  // The badge: the signed head and the audit first; every event too when the reader asks.
  async verify() {
    const head = await verifyHead(this.gameId);
    if (this.stopped) return;
    this.showBadge(head.checks, head.audit !== null);
    this.head = head;
  }

  async verifyEvents() {
    const button = this.root.querySelector("#check-events");
    if (button) button.disabled = true;
    const more = await verifyEvents(this.gameId, this.head ? this.head.audit : null);
    if (!this.stopped) this.showBadge([...this.head.checks, ...more], false, true);
  }

  // `open`: the details stay open for the reader who asked for them.
  showBadge(checks, offerMore, open = false) {
    const ok = checks.every((c) => c.ok);
    const badge = this.root.querySelector("#verified");
    badge.className = `badge ${ok ? "ok" : "bad"}`;
    badge.dataset.verified = String(ok);
    const text = (c) => t(c.check === "failed_load" || c.check === "unsupported" ? `verify.${c.check}` : `verify.check.${c.check}`);
    const failed = checks.find((c) => !c.ok);
    replace(badge,
      h("strong", {}, ok ? `✓ ${t("verify.ok")}` : `✗ ${t("verify.bad")}`), " ",
      h("details", { open }, h("summary", {}, ok ? t("verify.ok.detail") : t("verify.bad.detail", text(failed))),
        h("ul", {}, checks.map((c) => h("li", { "data-check": c.check, class: c.ok ? "ok" : "bad" }, `${c.ok ? "✓" : "✗"} ${text(c)}`))),
        offerMore ? h("p", {}, h("button", { type: "button", id: "check-events", onclick: () => this.verifyEvents() }, t("verify.more"))) : null,
        h("p", {}, h("a", { href: `/games/${this.gameId}/audit` }, t("replay.audit_raw")))));
  }
}

// A finished game's final view (its type, seats and version) and every event, all public now.
async function loadGame(gameId) {
  const { data: game } = await api.game(gameId, null);
  const events = game.status === "finished" ? await allEvents(gameId, null) : [];
  return { game, events };
}
