// A table: the game as this browser's seat (or a spectator) may see it, kept current by the
// event stream, with the seat's legal moves as the only things it can click.

import { allEvents, api } from "./api.js";
import { cardButton, cardFace, cardKey, sortCards, syncCardButtons } from "./cards.js";
import { chart, seriesOf } from "./chart.js";
import { BUTTON_LABELS, action, allowedCards, cardTemplate, kindOf, legalInWords, prompt } from "./choices.js";
import { h, replace } from "./dom.js";
import { privateCards, seatCards, seatFigures, tableState } from "./games.js";
import { LiveStream } from "./live.js";
import { forgetSeat, joinLink, seatOf } from "./seats.js";
import { describe, gameName } from "./words.js";

const now = () => performance.timeOrigin + performance.now();

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
    this.seatEntry = seatOf(gameId);
    this.etag = null;
    this.selected = new Set();
    this.selectionFor = null;
    this.sending = false;
    this.refreshing = null;
    this.again = false;
    this.stream = null;
    this.lastRendered = 0;
    this.stopped = false;
    Object.assign(table, { view: null, events: [], renderedAt: {}, loggedAt: {} });
  }

  get token() {
    return this.seatEntry ? this.seatEntry.token : null;
  }

  async start() {
    this.layout();
    this.ticker = setInterval(() => this.tick(), 250);
    try {
      await this.refresh();
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
    clearInterval(this.ticker);
    if (this.stream) this.stream.close();
  }

  follow() {
    const after = table.events.length ? table.events[table.events.length - 1].version : 0;
    this.stream = new LiveStream(this.gameId, this.token, {
      after,
      onEvent: (event) => {
        this.log(event);
        this.refresh();
      },
      onGap: () => this.fillGap(),
      onState: (state) => {
        this.root.querySelector("#live").textContent = state === "live" ? "live" : state === "ended" ? "" : "reconnecting…";
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
    if (response.status === 304) return;
    this.etag = response.etag;
    this.show(response.data);
  }

  show(view) {
    if (table.view && view.version < table.view.version) return; // an older answer, overtaken
    table.view = view;
    this.render();
  }

  lostSeat() {
    forgetSeat(this.gameId);
    this.seatEntry = null;
    this.etag = null;
    this.say("This seat's token no longer works (the seat was left, or its token replaced). You are watching.");
    if (this.stream) this.stream.close();
    this.refresh().then(() => this.follow());
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

  problem(error) {
    const messages = {
      "version-conflict": "The game moved on while you chose; here is the table as it is now.",
      "illegal-action": `That move is not allowed now (${error.message}).` +
        (error.problem.legal_actions && error.problem.legal_actions.length
          ? ` You may ${legalInWords(error.problem.legal_actions)}.`
          : " It is not your turn."),
      "game-finished": "The game is over.",
      "game-not-started": "The game has not started: it waits for players.",
      "rate-limited": `Too many requests: wait ${error.problem.retry_after || 1} s.`,
      unavailable: "The server is busy or restarting; try again in a moment.",
      network: "Cannot reach the server; check your connection.",
      unauthorized: "This seat's token is not valid for this game.",
    };
    this.say(messages[error.code] || error.message);
  }

  say(text) {
    const box = this.root.querySelector("#problem");
    box.textContent = text;
    box.hidden = !text;
  }

  fail(error) {
    replace(this.root, h("section", { class: "missing" },
      h("h1", {}, error.status === 404 ? "No such table" : "This table cannot be shown"),
      h("p", { id: "problem", role: "alert" }, error.message),
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
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
    const item = h("li", { "data-version": event.version, "data-type": event.type }, describe(event, (s) => this.who(s)));
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.append(item);
    if (atEnd) list.scrollTop = list.scrollHeight; // follow the game unless the reader scrolled up
    if (!(event.version in table.loggedAt)) table.loggedAt[event.version] = now();
    if (event.type === "GameEnded" && table.view) this.renderResult(table.view);
  }

  who(seat) {
    if (seat === null || seat === undefined) return "nobody";
    if (this.seatEntry && seat === this.seatEntry.seat) return "You";
    const info = table.view && table.view.seats[seat];
    if (info && info.name) return info.name;
    if (info && info.kind === "bot") return `Bot ${seat}`;
    return `Seat ${seat}`;
  }

  // ---- drawing ----

  layout() {
    replace(this.root, h("section", { id: "table", "data-game": this.gameId },
      h("header", { class: "table-head" },
        h("h1", { id: "table-title" }, "Table"),
        h("span", { id: "live", class: "live", "aria-live": "polite" })),
      h("p", { id: "status-line", "aria-live": "polite" }),
      h("p", { id: "countdown", hidden: true }),
      h("p", { id: "problem", role: "alert", hidden: true }),
      h("div", { id: "share" }),
      h("div", { class: "board" },
        h("section", { class: "trick-area", "aria-label": "the trick" }, h("div", { id: "trick" })),
        h("section", { id: "game-state", "aria-label": "the table" })),
      h("section", { id: "you", "aria-label": "your seat" },
        h("div", { id: "private" }),
        h("div", { id: "hand", role: "group", "aria-label": "your hand" }),
        h("div", { id: "actions" })),
      h("ul", { id: "seats", "aria-label": "seats" }),
      h("section", { id: "result", hidden: true }),
      h("details", { class: "log", open: true }, h("summary", {}, "What happened"), h("ol", { id: "log" })),
      h("p", { class: "leave" }, h("button", { type: "button", id: "leave", hidden: true, onclick: () => this.leave() }, "Leave this seat"))));
  }

  render() {
    const view = table.view;
    if (!view) return;
    const root = this.root.querySelector("#table");
    const focused = document.activeElement && document.activeElement.closest?.("#table") ? document.activeElement : null;
    const focusKey = focused && focused.dataset.suit ? `card:${focused.dataset.suit}:${focused.dataset.rank}` : focused?.id;
    root.dataset.version = view.version;
    root.dataset.status = view.status;
    if (view.you) root.dataset.seat = view.you.seat;
    else delete root.dataset.seat;
    this.root.querySelector("#table-title").textContent =
      `${gameName(view.type)}${view.round ? ` · round ${view.round}` : ""}${view.phase ? ` · ${view.phase}` : ""}`;
    this.renderStatus(view);
    this.renderShare(view);
    this.renderTrick(view);
    this.renderSeats(view);
    this.renderYou(view);
    this.renderResult(view);
    this.root.querySelector("#leave").hidden = !view.you || view.status === "finished";
    for (let v = this.lastRendered + 1; v <= view.version; v++) table.renderedAt[v] ??= now();
    this.lastRendered = Math.max(this.lastRendered, view.version);
    if (focusKey) this.refocus(focusKey);
    if (document.activeElement === document.body) this.focusChoice();
    this.tick(); // the countdown shows with the view, not a tick later
  }

  // Keyboard players: when the focused control went away (a card played), the next choice gets
  // the focus once it is the seat's turn again.
  focusChoice() {
    if (!table.view.you || !table.view.you.legal_actions.length) return;
    const first = this.root.querySelector("#you button.card.legal, #game-state button.card.legal, #count, #actions button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }

  refocus(key) {
    const target = key.startsWith("card:")
      ? this.root.querySelector(`button.card[data-suit="${key.split(":")[1]}"][data-rank="${key.split(":")[2]}"]:not([disabled])`)
      : this.root.querySelector(`#${CSS.escape(key)}`);
    if (target) target.focus();
  }

  renderStatus(view) {
    const line = this.root.querySelector("#status-line");
    const mine = view.you ? view.you.legal_actions : [];
    if (view.status === "waiting") {
      const open = view.seats.filter((s) => s.kind === "open").length;
      line.textContent = `Waiting for ${open} more player${open === 1 ? "" : "s"} to join.`;
    } else if (view.status === "finished") {
      line.textContent = "Game over.";
    } else if (mine.length) {
      line.textContent = `Your turn: ${mine.map(prompt).join(", or ")}.`;
    } else if (view.to_act.length) {
      line.textContent = `Waiting for ${view.to_act.map((s) => this.who(s)).join(", ")}.`;
    } else {
      line.textContent = "The dealer is busy (scoring or dealing)…";
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
    box.textContent = due.map((s) => `${this.who(s.seat)}: ${clock(left(s))}`).join(" · ");
    box.classList.toggle("urgent", due.some((s) => view.you && s.seat === view.you.seat && left(s) <= 10));
  }

  renderShare(view) {
    const invites = (this.seatEntry && this.seatEntry.invites) || [];
    const open = invites.filter((i) => view.seats[i.seat] && view.seats[i.seat].kind === "open");
    replace(this.root.querySelector("#share"), open.length ? [
      h("p", {}, "Send each friend the link of one open seat:"),
      h("ul", {}, open.map((i) => {
        const link = joinLink(this.gameId, i.seat, i.invite);
        return h("li", {}, `Seat ${i.seat}: `,
          h("a", { class: "share-link", "data-seat": i.seat, href: link }, link),
          " ", h("button", { type: "button", class: "copy", onclick: () => navigator.clipboard?.writeText(link) }, "Copy"));
      }))] : []);
  }

  renderTrick(view) {
    const trick = view.trick || [];
    const last = view.last_trick;
    const plays = trick.length ? trick : last ? last.plays || [] : [];
    const caption = trick.length ? `Trick ${view.trick_number || ""}`
      : last ? `Last trick, won by ${this.who(last.winner ?? last.seat)}` : "";
    replace(this.root.querySelector("#trick"), caption ? [
      h("p", { class: "caption" }, caption),
      h("ol", { class: `plays${trick.length ? "" : " done"}` }, plays.map((p) =>
        h("li", {}, cardFace(p.card), h("span", { class: "who" }, this.who(p.seat)))))] : []);
    const choose = this.tableChooser(view);
    replace(this.root.querySelector("#game-state"), tableState(view, (s) => this.who(s), choose));
  }

  // Saint Poker's pickup chooses among the cards on the table, not in the hand.
  tableChooser(view) {
    const template = view.you && cardTemplate(view.you.legal_actions);
    if (!template || template.type !== "pick_up") return null;
    const allowed = allowedCards(template);
    return (card) => this.cardControl(template, card, allowed);
  }

  renderSeats(view) {
    replace(this.root.querySelector("#seats"), view.seats.map((seat) => {
      const classes = ["seat"];
      if (view.to_act.includes(seat.seat)) classes.push("to-act");
      if (view.you && view.you.seat === seat.seat) classes.push("you");
      if (view.result && view.result.winners.includes(seat.seat)) classes.push("winner");
      const kind = seat.kind === "bot" ? `bot, ${seat.level}` : seat.kind === "open" ? "open seat" : "player";
      return h("li", { class: classes.join(" "), "data-seat": seat.seat },
        h("span", { class: "name" }, this.who(seat.seat)), h("span", { class: "kind" }, ` (${kind})`),
        view.to_act.includes(seat.seat) ? h("span", { class: "turn-mark" }, " ◀ to act") : null,
        seatFigures(view, seat), seatCards(view, seat));
    }));
  }

  renderYou(view) {
    const you = view.you;
    const hand = this.root.querySelector("#hand");
    this.root.querySelector("#you").hidden = !you || (!you.hand.length && !you.legal_actions.length);
    if (!you) {
      replace(this.root.querySelector("#private"));
      replace(hand, h("p", { class: "spectating" }, "You are watching this table."));
      replace(this.root.querySelector("#actions"));
      return;
    }
    const template = cardTemplate(you.legal_actions);
    const key = template ? `${view.version}:${template.type}` : null;
    if (template && this.selectionFor !== template.type) this.selected.clear();
    this.selectionFor = template ? template.type : null;
    const allowed = template && template.type !== "pick_up" ? allowedCards(template) : new Set();
    for (const k of [...this.selected]) if (!allowed.has(k)) this.selected.delete(k);
    replace(this.root.querySelector("#private"), privateCards(you));
    if (hand.querySelector(".spectating")) replace(hand);
    syncCardButtons(hand, sortCards(you.hand, view.type), (card) => this.cardOptions(template, card, allowed));
    hand.dataset.choice = key || "";
    this.renderActions(you.legal_actions, template);
  }

  cardOptions(template, card, allowed) {
    const enabled = !this.sending && allowed.has(cardKey(card));
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
        controls.push(h("button", { type: "button", "data-action": template.type, disabled: this.sending,
          onclick: () => this.send(template) }, BUTTON_LABELS[template.type] || prompt(template)));
      }
    }
    replace(this.root.querySelector("#actions"), controls);
  }

  sendCards(template) {
    const chosen = template.cards.filter((c) => this.selected.has(cardKey(c)));
    const ready = chosen.length === template.count && !this.sending;
    return h("div", { class: "send-cards" },
      h("span", { class: "picked" }, `${chosen.length} of ${template.count} chosen`),
      h("button", { type: "button", id: "send-cards", "data-action": template.type, disabled: !ready,
        onclick: () => this.send(template, { cards: chosen }) }, BUTTON_LABELS[template.type] || "Send"));
  }

  numberChoice(template) {
    const input = h("input", { id: "count", type: "number", inputmode: "numeric", min: template.min,
      max: template.max, value: template.min, required: true, "aria-label": prompt(template) });
    const submit = (e) => {
      e.preventDefault();
      const count = Number(input.value);
      if (!Number.isInteger(count) || count < template.min || count > template.max) {
        this.say(`Choose a whole number from ${template.min} to ${template.max}.`);
        return;
      }
      this.send(template, { count });
    };
    return h("form", { class: "number-choice", onsubmit: submit },
      h("label", { for: "count" }, `${prompt(template)}: `), input,
      h("button", { type: "submit", id: "send-count", "data-action": template.type, disabled: this.sending },
        BUTTON_LABELS[template.type] || "Send"));
  }

  renderResult(view) {
    const box = this.root.querySelector("#result");
    box.hidden = view.status !== "finished" || !view.result;
    if (box.hidden) return;
    const { winners } = view.result;
    const names = view.seats.map((s) => this.who(s.seat));
    replace(box, h("h2", { id: "winners" }, winners.length
      ? `${winners.map((s) => this.who(s)).join(" and ")} won.` : "Nobody won."),
    chart(seriesOf(view.type, table.events, view.seats.length), names),
    h("p", {}, h("a", { href: "#/" }, "Back to the lobby"), " · ",
      h("a", { href: `/games/${this.gameId}/audit`, target: "_blank", rel: "noopener" }, "Audit this game")));
  }

  async leave() {
    if (!this.seatEntry || !confirm("Leave this seat? A bot will play it from now on.")) return;
    try {
      await api.leave(this.gameId, this.seatEntry.seat, this.token);
      this.lostSeat();
      this.say("You left; a bot plays your seat now.");
    } catch (error) {
      this.problem(error);
    }
  }
}
