// A table: the game as this browser's seat (or a spectator) may see it, kept current by the
// event stream, with the seat's legal moves as the only things it can click.

import { allEvents, api } from "./api.js";
import { seatItems, seatName, stateView, trickView } from "./board.js";
import { cardButton, cardKey, sortCards, syncCardButtons } from "./cards.js";
import { chart, seriesOf } from "./chart.js";
import { action, allowedCards, buttonLabel, cardTemplate, kindOf, onTheTable, prompt } from "./choices.js";
import { isOnline, offConnection, onConnection, reachable, streamDown } from "./connection.js";
import { h, replace } from "./dom.js";
import { phaseName, privateCards } from "./games.js";
import { guidePanel } from "./guide.js";
import { t, useGame } from "./i18n.js";
import { LiveStream } from "./live.js";
import { asOneLine, explain } from "./outcomes.js";
import { problemText } from "./problems.js";
import { credentialFor, player } from "./player.js";
import { forgetSeat, joinLink, keepSeat, seatOf } from "./seats.js";
import { loadGlossary } from "./terms.js";
import { describe, gameName } from "./words.js";

const now = () => performance.timeOrigin + performance.now();
const PASSING = new Set(["unavailable", "rate-limited"]);

// Everything the page knows about the table; `memory()` in app.js shows it whole.
export const table = {
  view: null,
  events: [],
  renderedAt: {},
  loggedAt: {},
};

export function showTable(root, gameId) {
  const page = new TablePage(root, gameId);
  page.start();
  return () => page.stop();
}

class TablePage {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    const kept = seatOf(gameId);
    this.seatEntry = credentialFor(kept) ? kept : null; // another player's seat is not ours
    this.etag = null;
    this.selected = new Set();
    this.selectionFor = null;
    this.sending = false;
    this.refreshing = null;
    this.again = false;
    this.stream = null;
    this.lastRendered = 0;
    this.stopped = false;
    this.passing = false; // the problem shown is the server's momentary state (see say)
    this.onConnection = () => this.render();
    Object.assign(table, { view: null, events: [], renderedAt: {}, loggedAt: {} });
  }

  // The seat's own token, or the player's key at a seat the player holds.
  get token() {
    return credentialFor(this.seatEntry);
  }

  async start() {
    this.layout();
    this.ticker = setInterval(() => this.tick(), 250);
    onConnection(this.onConnection); // offline: cards locked; back: unlocked
    // The terms' definitions come alongside the view: drawn plain first, explained once here.
    loadGlossary().then(() => !this.stopped && this.root.querySelector("#table") && this.render());
    try {
      await this.refresh();
      if (this.adoptPlayersSeat()) await this.refresh();
      const events = await allEvents(this.gameId, this.token);
      events.forEach((event) => this.log(event));
      if (this.behind()) await this.refresh();
    } catch (error) {
      return this.fail(error);
    }
    if (table.view.status === "finished") return this.render();
    this.follow();
  }

  stop() {
    this.stopped = true;
    offConnection(this.onConnection);
    clearInterval(this.ticker);
    if (this.stream) this.stream.close();
  }

  follow() {
    if (this.stopped) return; // the reader left: a late re-read must not reopen the stream
    const after = table.events.length ? table.events[table.events.length - 1].version : 0;
    this.stream = new LiveStream(this.gameId, this.token, {
      after,
      onEvent: (event) => {
        this.log(event);
        this.refresh();
      },
      onGap: () => this.fillGap(),
      onState: (state) => {
        if (this.stopped) return; // a stream closing as the page goes: its elements are gone
        if (state === "live") reachable();
        if (state === "reconnecting") streamDown();
        const live = this.root.querySelector("#live");
        live.textContent = state === "ended" ? "" : t(`live.${state}`);
        live.dataset.state = state;
      },
    });
    this.stream.open();
  }

  async fillGap() {
    const last = table.events.length ? table.events[table.events.length - 1].version : 0;
    try {
      (await allEvents(this.gameId, this.token, last)).forEach((event) => this.log(event));
    } catch { /* the stream goes on; the next gap retries */ }
  }

  // One view request at a time; events that arrive meanwhile ask for one more afterwards.
  async refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      // Again while events newer than the view have arrived (they may land mid-request).
      for (let tries = 0; tries < 20 && !this.stopped; tries++) {
        this.again = false;
        await this.fetchView();
        if (!this.again && !this.behind()) break;
        if (!this.again) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      await this.refreshing;
    } finally {
      this.refreshing = null;
    }
  }

  behind() {
    const last = table.events.length ? table.events[table.events.length - 1].version : 0;
    return Boolean(table.view) && table.view.version < last;
  }

  async fetchView() {
    let response;
    try {
      response = await api.game(this.gameId, this.token, this.etag);
    } catch (error) {
      if (error.status === 401 && this.token) return this.lostSeat();
      if (!table.view) throw error;
      return this.problem(error);
    }
    if (this.passing) this.say(""); // the server answers again: a busy or rate-limited note is over
    if (response.status === 304) return;
    this.etag = response.etag;
    this.show(response.data);
  }

  show(view) {
    if (table.view && view.version < table.view.version) return; // an older answer, overtaken
    table.view = view;
    useGame(view.type); // the page speaks this game's words first
    this.render();
  }

  // A table the player sits at, opened where this browser kept no seat for it (from another
  // device, after importing the key): the public seats say which is the player's.
  adoptPlayersSeat() {
    const me = player();
    if (this.token || !me || !table.view) return false;
    const mine = table.view.seats.find((s) => s.player_id === me.id && s.kind === "human");
    if (!mine) return false;
    this.seatEntry = { seat: mine.seat, player: me.id, name: me.name, invites: [] };
    keepSeat(this.gameId, this.seatEntry);
    this.etag = null;
    return true;
  }

  lostSeat() {
    const byKey = Boolean(this.seatEntry && this.seatEntry.player);
    forgetSeat(this.gameId);
    this.seatEntry = null;
    this.etag = null;
    this.say(t(byKey ? "table.lost_seat_key" : "table.lost_seat"));
    // Read again as a spectator (not awaited: this may run within a refresh, which then reads
    // once more). While still starting, the start goes on to follow the table itself.
    const reread = this.refresh();
    if (!this.stream) return;
    this.stream.close();
    reread.then(() => this.follow());
  }

  // ---- acting ----

  async send(template, choice) {
    if (this.sending || !table.view) return;
    this.sending = true;
    this.render();
    const body = { ...action(template, choice), expected_version: table.view.version };
    try {
      const { data } = await api.act(this.gameId, this.token, body);
      this.selected.clear();
      this.say("");
      this.sending = false;
      this.etag = `"${data.game.version}"`;
      this.logOwn(data.events);
      this.show(data.game);
    } catch (error) {
      this.sending = false;
      this.problem(error);
      await this.refresh();
      this.render();
    }
  }

  // A problem in words, by its code (the API's `detail` is English, for developers). A server
  // out of reach is the connection banner's to say, not this box's.
  problem(error) {
    if (error.code === "network") return;
    this.say(problemText(error), PASSING.has(error.code));
  }

  // `passing`: the problem is the server's state, not the move's, and goes once it answers.
  say(text, passing = false) {
    this.passing = Boolean(text) && passing;
    const box = this.root.querySelector("#problem");
    box.textContent = text;
    box.hidden = !text;
  }

  fail(error) {
    replace(this.root, h("section", { class: "missing" },
      h("h1", {}, error.status === 404 ? t("table.missing") : t("table.broken")),
      h("p", { id: "problem", role: "alert" }, problemText(error)),
      h("p", {}, h("a", { href: "#/" }, t("table.back")))));
  }

  // ---- the log ----

  // Our own move's events are in the action's answer: logged at once, unless others' events
  // came first and are not here yet (then the log catches up from the store, in order).
  logOwn(events) {
    const last = table.events.length ? table.events[table.events.length - 1].version : 0;
    if (events.length && events[0].version === last + 1) events.forEach((event) => this.log(event));
    else if (events.length && events[0].version > last + 1) this.fillGap();
  }

  log(event) {
    const last = table.events.length ? table.events[table.events.length - 1].version : 0;
    if (event.version <= last) return;
    table.events.push(event);
    const list = this.root.querySelector("#log");
    const who = (s) => this.who(s);
    const why = explain(table.view ? table.view.type : "", table.events, table.events.length - 1, who);
    const item = h("li", { "data-version": event.version, "data-type": event.type }, describe(event, who, table.view?.type),
      why.length ? h("span", { class: "why" }, ` ${asOneLine(why)}`) : null);
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.append(item);
    if (atEnd) list.scrollTop = list.scrollHeight; // follow the game unless the reader scrolled up
    if (!(event.version in table.loggedAt)) table.loggedAt[event.version] = now();
    if (event.type === "GameEnded" && table.view) this.renderResult(table.view);
    if (event.type === "RoundScored" && table.view) this.renderSummary(table.view);
  }

  // How the log and the status line name a seat: "You" for this browser's seat.
  who(seat) {
    if (seat === null || seat === undefined) return t("who.nobody");
    if (this.seatEntry && seat === this.seatEntry.seat) return t("who.you", seatName(table.view, seat));
    return seatName(table.view, seat);
  }

  // ---- drawing ----

  layout() {
    replace(this.root, h("section", { id: "table", "data-game": this.gameId },
      h("header", { class: "table-head" },
        h("h1", { id: "table-title" }, t("table.title")),
        h("span", { id: "live", class: "live", "aria-live": "polite" })),
      h("p", { id: "status-line", "aria-live": "polite" }),
      h("p", { id: "countdown", hidden: true }),
      h("p", { id: "problem", role: "alert", hidden: true }),
      h("div", { id: "share" }),
      h("div", { class: "board" },
        h("section", { class: "trick-area", "aria-label": t("table.trick_area") }, h("div", { id: "trick" })),
        h("section", { id: "game-state", "aria-label": t("table.state") })),
      h("section", { id: "you", "aria-label": t("table.your_seat") },
        h("div", { id: "private" }),
        h("div", { id: "hand", role: "group", "aria-label": t("table.hand") }),
        h("div", { id: "actions" })),
      h("ul", { id: "seats", "aria-label": t("table.seats") }),
      h("section", { id: "round-summary", hidden: true, "aria-labelledby": "round-summary-title" }),
      h("section", { id: "result", hidden: true, "aria-labelledby": "winners" }),
      h("details", { class: "log", open: true }, h("summary", {}, t("table.log")),
        h("ol", { id: "log", tabindex: "0", "aria-label": t("table.log") })), // scrolls: keyboard-reachable
      h("div", { id: "how-to-play-slot" }),
      h("p", { class: "leave" }, h("button", { type: "button", id: "leave", hidden: true, onclick: () => this.leave() }, t("table.leave")))));
  }

  render() {
    const view = table.view;
    if (!view || this.stopped) return; // a reply that lands after the reader left draws nothing
    const root = this.root.querySelector("#table");
    const focused = document.activeElement && document.activeElement.closest?.("#table") ? document.activeElement : null;
    const focusKey = !focused ? null
      : focused.dataset.suit ? `card:${focused.dataset.suit}:${focused.dataset.rank}`
        : focused.dataset.term ? `term:${[...this.root.querySelectorAll("button.term")].indexOf(focused)}`
          : focused.id;
    root.dataset.version = view.version;
    root.dataset.status = view.status;
    if (view.you) root.dataset.seat = view.you.seat;
    else delete root.dataset.seat;
    this.root.querySelector("#table-title").textContent =
      [gameName(view.type), view.round ? t("table.round", view.round) : "", phaseName(view)].filter(Boolean).join(" · ");
    const slot = this.root.querySelector("#how-to-play-slot");
    if (!slot.firstChild) replace(slot, guidePanel(view.type));
    this.root.querySelector("#table").classList.toggle("offline", !isOnline());
    this.renderStatus(view);
    this.renderShare(view);
    this.renderTrick(view);
    this.renderSeats(view);
    this.renderYou(view);
    this.renderSummary(view);
    this.renderResult(view);
    this.root.querySelector("#leave").hidden = !view.you || view.status === "finished";
    for (let v = this.lastRendered + 1; v <= view.version; v++) table.renderedAt[v] ??= now();
    this.lastRendered = Math.max(this.lastRendered, view.version);
    if (focusKey) this.refocus(focusKey);
    const idle = document.activeElement === document.body || document.activeElement?.id === "main";
    if (idle) this.focusChoice();
    this.tick(); // the countdown shows with the view, not a tick later
  }

  // Keyboard players: when the focused control went away (a card played), the next choice gets
  // the focus once it is the seat's turn again.
  focusChoice() {
    if (!table.view.you || !table.view.you.legal_actions.length) return;
    const first = this.root.querySelector("#you button.card.legal, #game-state button.card.legal, #count, #actions button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }

  // The focused control again once the table is drawn anew: the same card, the term at the
  // same place (terms are redrawn with their seat), or the control of the same id.
  refocus(key) {
    let target;
    if (key.startsWith("card:")) {
      target = this.root.querySelector(`button.card[data-suit="${key.split(":")[1]}"][data-rank="${key.split(":")[2]}"]:not([disabled])`);
    } else if (key.startsWith("term:")) {
      target = this.root.querySelectorAll("button.term")[Number(key.slice(5))];
    } else {
      target = this.root.querySelector(`#${CSS.escape(key)}`);
    }
    if (target && target !== document.activeElement) target.focus();
  }

  renderStatus(view) {
    const line = this.root.querySelector("#status-line");
    const mine = view.you ? view.you.legal_actions : [];
    if (view.status === "waiting") {
      line.textContent = t("status.waiting", view.seats.filter((s) => s.kind === "open").length);
    } else if (view.status === "finished") {
      line.textContent = t("status.over");
    } else if (mine.length) {
      line.textContent = t("status.your_turn", t("or", mine.map(prompt)));
    } else if (view.to_act.length) {
      line.textContent = t("status.waiting_for", view.to_act.map((s) => seatName(view, s)));
    } else {
      line.textContent = t("status.busy");
    }
    line.classList.toggle("your-turn", mine.length > 0);
  }

  tick() {
    const view = table.view;
    const box = this.root.querySelector("#countdown");
    if (!box) return;
    const due = view && view.status === "active"
      ? view.seats.filter((s) => s.deadline && view.to_act.includes(s.seat)) : [];
    box.hidden = !due.length;
    if (!due.length) return;
    const left = (s) => Math.max(0, Math.ceil((Date.parse(s.deadline) - Date.now()) / 1000));
    const clock = (n) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
    box.textContent = due.map((s) => t("countdown", seatName(view, s.seat), clock(left(s)))).join(" · ");
    box.classList.toggle("urgent", due.some((s) => view.you && s.seat === view.you.seat && left(s) <= 10));
  }

  renderShare(view) {
    const invites = (this.seatEntry && this.seatEntry.invites) || [];
    const open = invites.filter((i) => view.seats[i.seat] && view.seats[i.seat].kind === "open");
    replace(this.root.querySelector("#share"), open.length ? [
      h("p", {}, t("table.share")),
      h("ul", {}, open.map((i) => {
        const link = joinLink(this.gameId, i.seat, i.invite);
        return h("li", {}, t("table.share.seat", i.seat),
          h("a", { class: "share-link", "data-seat": i.seat, href: link }, link),
          " ", h("button", { type: "button", class: "copy", onclick: () => navigator.clipboard?.writeText(link) }, t("table.copy")));
      }))] : []);
  }

  renderTrick(view) {
    const who = (s) => seatName(view, s);
    replace(this.root.querySelector("#trick"), trickView(view, who));
    replace(this.root.querySelector("#game-state"), stateView(view, who, this.tableChooser(view)));
  }

  // A choice among cards none of which is in the hand is made among the cards on the table.
  tableChooser(view) {
    const template = view.you && cardTemplate(view.you.legal_actions);
    if (!template || !onTheTable(template, view.you.hand)) return null;
    const allowed = allowedCards(template);
    return (card) => this.cardControl(template, card, allowed);
  }

  renderSeats(view) {
    replace(this.root.querySelector("#seats"), seatItems(view, view.you ? view.you.seat : null));
  }

  renderYou(view) {
    const you = view.you;
    const hand = this.root.querySelector("#hand");
    this.root.querySelector("#you").hidden = !you || (!you.hand.length && !you.legal_actions.length);
    if (!you) {
      replace(this.root.querySelector("#private"));
      replace(hand, h("p", { class: "spectating" }, t("table.watching")));
      replace(this.root.querySelector("#actions"));
      return;
    }
    const template = cardTemplate(you.legal_actions);
    const key = template ? `${view.version}:${template.type}` : null;
    if (template && this.selectionFor !== template.type) this.selected.clear();
    this.selectionFor = template ? template.type : null;
    const allowed = template && !onTheTable(template, you.hand) ? allowedCards(template) : new Set();
    for (const k of [...this.selected]) if (!allowed.has(k)) this.selected.delete(k);
    replace(this.root.querySelector("#private"), privateCards(view, you));
    if (hand.querySelector(".spectating")) replace(hand);
    syncCardButtons(hand, sortCards(you.hand, view.type), (card) => this.cardOptions(template, card, allowed));
    hand.dataset.choice = key || "";
    this.renderActions(you.legal_actions, template);
  }

  cardOptions(template, card, allowed) {
    const enabled = !this.sending && isOnline() && allowed.has(cardKey(card));
    const multi = template && kindOf(template) === "cards";
    return {
      enabled,
      pressed: multi && enabled ? this.selected.has(cardKey(card)) : undefined,
      onclick: () => (multi ? this.toggle(template, card) : this.send(template, { card })),
    };
  }

  cardControl(template, card, allowed) {
    return cardButton(card, this.cardOptions(template, card, allowed));
  }

  toggle(template, card) {
    const key = cardKey(card);
    if (this.selected.has(key)) this.selected.delete(key);
    else if (this.selected.size < template.count) this.selected.add(key);
    this.render();
  }

  renderActions(templates, cardChoice) {
    const controls = [];
    for (const template of templates) {
      const kind = kindOf(template);
      if (kind === "cards" && template === cardChoice) controls.push(this.sendCards(template));
      if (kind === "number") controls.push(this.numberChoice(template));
      if (kind === "plain") {
        controls.push(h("button", { type: "button", "data-action": template.type, disabled: this.sending || !isOnline(),
          onclick: () => this.send(template) }, buttonLabel(template, prompt(template))));
      }
    }
    replace(this.root.querySelector("#actions"), controls);
  }

  sendCards(template) {
    const chosen = template.cards.filter((c) => this.selected.has(cardKey(c)));
    const ready = chosen.length === template.count && !this.sending && isOnline();
    return h("div", { class: "send-cards" },
      h("span", { class: "picked", "data-picked": chosen.length, "data-count": template.count }, t("picked", chosen.length, template.count)),
      h("button", { type: "button", id: "send-cards", "data-action": template.type, disabled: !ready,
        onclick: () => this.send(template, { cards: chosen }) }, buttonLabel(template, t("button.send"))));
  }

  numberChoice(template) {
    const input = h("input", { id: "count", type: "number", inputmode: "numeric", min: template.min,
      max: template.max, value: template.min, required: true, "aria-label": prompt(template) });
    const submit = (e) => {
      e.preventDefault();
      const count = Number(input.value);
      if (!Number.isInteger(count) || count < template.min || count > template.max) {
        this.say(t("number.invalid", template.min, template.max));
        return;
      }
      this.send(template, { count });
    };
    return h("form", { class: "number-choice", onsubmit: submit },
      h("label", { for: "count" }, `${prompt(template)}: `), input,
      h("button", { type: "submit", id: "send-count", "data-action": template.type, disabled: this.sending || !isOnline() },
        buttonLabel(template, t("button.send"))));
  }

  // The last round's scoring, explained, until the next round is scored.
  renderSummary(view) {
    const box = this.root.querySelector("#round-summary");
    const at = table.events.findLastIndex((e) => e.type === "RoundScored");
    const scored = at >= 0 ? table.events[at] : null;
    const said = scored ? explain(view.type, table.events, at, (s) => seatName(view, s)) : [];
    box.hidden = !said.length;
    if (!said.length || box.dataset.version === String(scored.version)) return;
    box.dataset.version = scored.version;
    replace(box, h("h2", { id: "round-summary-title" }, t("round.summary", scored.data.round)),
      h("ul", {}, said.map((line) => h("li", {}, line))));
  }

  renderResult(view) {
    const box = this.root.querySelector("#result");
    box.hidden = view.status !== "finished" || !view.result;
    if (box.hidden) return;
    const { winners } = view.result;
    const name = (s) => seatName(view, s);
    const names = view.seats.map((s) => name(s.seat));
    const ended = table.events.findIndex((e) => e.type === "GameEnded");
    const why = ended >= 0 ? explain(view.type, table.events, ended, name) : [];
    replace(box, h("h2", { id: "winners" }, winners.length ? t("result.won", winners.map(name)) : t("result.nobody")),
      why.length ? h("ul", { class: "why-end", "aria-label": t("result.why") }, why.map((line) => h("li", {}, line))) : null,
      chart(seriesOf(view.type, table.events, view.seats.length), names),
      h("p", {}, h("a", { href: "#/" }, t("table.back")), " · ",
        h("a", { id: "replay-link", href: `#/replay/${this.gameId}` }, t("result.replay"))));
  }

  async leave() {
    if (!this.seatEntry || !confirm(t("table.leave.confirm"))) return;
    try {
      await api.leave(this.gameId, this.seatEntry.seat, this.token);
      this.lostSeat();
      this.say(t("table.left"));
    } catch (error) {
      this.problem(error);
    }
  }
}

