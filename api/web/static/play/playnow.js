// "Play now": the matchmaking queue (`POST/GET/DELETE /me/queue`). The player asks for a game
// type, the table sizes it accepts, rated or not, and whether bots may fill the seats after a
// wait; a matcher on the server seats it, and the `match_found` notice (on `/me/stream`, which
// the lobby's "My tables" already follows) names the game and the seat: the table opens there,
// the player's key acting at it. While the player waits, the queue is also read every few
// seconds, so a match is found even on a page that holds no notice stream, or after a drop.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { ensurePlayer, offPlayer, onPlayer, player } from "./player.js";
import { problemText } from "./problems.js";
import { keepSeat, seatOf } from "./seats.js";
import { gameName } from "./words.js";

const POLL_MS = 4000;
const RECENT_MS = 10 * 60 * 1000; // a match this recent is offered on the lobby; older ones are in "My tables"
const PREFS = "cardroom.queue";
const DEFAULT_BOTS_AFTER = 30;

// Where this browser's player stands: idle, waiting (since a local time), or a table found
// that the page did not open by itself (a cancel that came too late, a match made while away).
const state = { status: "idle", playerId: null, standing: null, since: 0, found: null, problem: "" };
const listeners = new Set();
let poller = null;
// One more at each join or leave, and when it ends: a read of the queue that began before is
// stale (a poll still saying "waiting" after a cancel), and is dropped.
let epoch = 0;
// A `match_found` that came while the join's own answer was still on its way (bots after 0 s).
let early = null;

const changed = () => listeners.forEach((listener) => listener(state));
export const onQueue = (listener) => listeners.add(listener);
export const offQueue = (listener) => listeners.delete(listener);
export const queueState = () => state;

function set(fields) {
  Object.assign(state, fields);
  clearInterval(poller);
  poller = state.status === "waiting" ? setInterval(poll, POLL_MS) : null;
  changed();
}

function waitingFrom(standing, me) {
  // Counted here from the server's own figure, so a slow answer or a skewed clock does not show.
  set({ status: "waiting", playerId: me.id, standing, since: Date.now() - standing.waited_seconds * 1000, found: null });
}

// The table the matcher seated the player at: kept as the player's seat, and opened.
function open(match, me) {
  keepSeat(match.game_id, { seat: match.seat, player: me.id, name: me.name, invites: [] });
  set({ status: "idle", standing: null, found: null, problem: "" });
  location.hash = `#/games/${match.game_id}`;
}

// What the server says now; `waiting` decides whether a match found is opened at once. A join
// or leave in flight decides instead, unless this read is its own (`own`).
export async function readQueue(own = false) {
  const me = player();
  if (!me) return set({ status: "idle", playerId: null, standing: null, found: null, problem: "" });
  const wasWaiting = state.status === "waiting" && state.playerId === me.id;
  const at = epoch;
  const stale = () => at !== epoch || (state.status === "busy" && !own) || player()?.id !== me.id;
  try {
    const { data } = await api.myQueue(me.key);
    if (stale()) return;
    if (data.status === "waiting") return waitingFrom(data, me);
    if (wasWaiting) return open(data.match, me);
    // A match this browser did not open (made while no page waited): offered while recent.
    const offer = Date.now() - Date.parse(data.match.matched_at) < RECENT_MS && !seatOf(data.match.game_id);
    set({ status: "idle", playerId: me.id, standing: null, found: offer ? data.match : null });
  } catch (error) {
    if (stale()) return;
    if (error.code === "not-found") return set({ status: "idle", playerId: me.id, standing: null, found: null });
    if (!wasWaiting) set({ problem: queueProblem(error) }); // while waiting, the next poll tries again
  }
}

async function poll() {
  if (document.visibilityState === "hidden" && state.status === "waiting") return; // the notice still comes
  await readQueue();
}

// A notice from the player's stream: `match_found` opens the table it names while waiting.
// A stream read from its start (a key just imported) replays older matches: only one made
// since this wait began counts.
export function queueNotice(notice) {
  const me = player();
  if (notice.kind !== "match_found" || !me) return;
  const match = { game_id: notice.game_id, seat: notice.seat, at: notice.at };
  if (state.status === "busy" && !state.standing) early = match; // joining: its answer decides
  if (state.status === "waiting" && me.id === state.playerId && madeSince(match, state.standing)) open(match, me);
}

const madeSince = (match, standing) => Date.parse(match.at) >= Date.parse(standing.since);

// A join or leave begins, or ends: reads begun before it are dropped.
function settle(fields) {
  epoch += 1;
  set(fields);
}

async function join(body, nameToMake) {
  settle({ status: "busy", problem: "", found: null });
  early = null;
  let me;
  try {
    me = await ensurePlayer(nameToMake());
  } catch (error) {
    return settle({ status: "idle", problem: queueProblem(error) });
  }
  try {
    const { data } = await api.joinQueue(me.key, body);
    epoch += 1;
    waitingFrom(data, me);
    if (early && madeSince(early, data)) open(early, me);
  } catch (error) {
    if (error.code !== "already-queued") return settle({ status: "idle", problem: queueProblem(error) });
    await readQueue(true); // waiting already (another tab or device): show where it stands
    settle({ status: state.status === "busy" ? "idle" : state.status, problem: queueProblem(error) });
  }
}

async function leave() {
  const me = player();
  if (!me) return;
  settle({ status: "busy", problem: "" });
  try {
    await api.leaveQueue(me.key);
    settle({ status: "idle", standing: null });
  } catch (error) {
    if (error.code === "not-found") return settle({ status: "idle", standing: null });
    if (error.code === "already-matched") {
      // The matcher seated the player as it left: the seat is the player's now.
      const match = { game_id: error.problem.game_id, seat: error.problem.seat };
      keepSeat(match.game_id, { seat: match.seat, player: me.id, name: me.name, invites: [] });
      return settle({ status: "idle", standing: null, found: match, problem: queueProblem(error) });
    }
    settle({ status: "waiting", problem: queueProblem(error) }); // still waiting, as far as we know
  }
}

function prefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS)) || {};
  } catch {
    return {};
  }
}

function keepPrefs(kept) {
  try {
    localStorage.setItem(PREFS, JSON.stringify(kept));
  } catch { /* not kept: the defaults next time */ }
}

// A key refused here was replaced on another device: "My tables" says how to fix it too.
const queueProblem = (error) => (error.status === 401 ? t("me.key_refused") : problemText(error));

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

// The lobby's panel: the form while idle, "searching… N seconds" and Cancel while waiting.
// Returns the element and a function that stops it.
export function playNowPanel(types, nameToMake) {
  const kept = prefs();
  const type = h("select", { id: "queue-type" }, types.map((gameType) =>
    h("option", { value: gameType.id, selected: gameType.id === kept.type }, gameName(gameType.id))));
  const sizes = h("fieldset", { id: "queue-sizes" });
  const rated = h("input", { id: "queue-rated", type: "checkbox", checked: kept.rated !== false });
  const bots = h("input", { id: "queue-bots", type: "checkbox", checked: kept.bots !== false });
  const botsAfter = h("input", { id: "queue-bots-after", type: "number", inputmode: "numeric", min: 0, max: 3600,
    value: kept.botsAfter ?? DEFAULT_BOTS_AFTER, class: "seconds" });
  const problem = h("p", { id: "queue-problem", role: "alert", hidden: true });
  const joinButton = h("button", { type: "submit", id: "queue-join" }, t("queue.join"));
  const drawSizes = () => {
    const gameType = types.find((g) => g.id === type.value) || types[0];
    const wanted = type.value === kept.type && kept.sizes ? kept.sizes : null;
    replace(sizes, h("legend", {}, t("queue.sizes")), range(gameType.min_players, gameType.max_players).map((size) =>
      h("span", { class: "size" },
        h("input", { id: `queue-size-${size}`, type: "checkbox", "data-size": size, checked: !wanted || wanted.includes(size) }),
        h("label", { for: `queue-size-${size}` }, t("queue.size", size)))));
  };
  type.addEventListener("change", drawSizes);
  bots.addEventListener("change", () => (botsAfter.disabled = !bots.checked));
  botsAfter.disabled = !bots.checked;
  drawSizes();
  const form = h("form", { id: "queue-form" },
    h("div", { class: "row" }, h("label", { for: "queue-type" }, `${t("lobby.game")} `), type),
    sizes,
    h("div", { class: "row" }, rated, h("label", { for: "queue-rated" }, t("queue.rated"))),
    h("div", { class: "row" }, bots, h("label", { for: "queue-bots" }, t("queue.bots")),
      h("span", { class: "bots-after" }, h("label", { for: "queue-bots-after" }, `${t("queue.bots_after")} `), botsAfter)),
    joinButton);
  form.onsubmit = (e) => {
    e.preventDefault();
    const chosen = [...sizes.querySelectorAll("input[data-size]:checked")].map((box) => Number(box.dataset.size));
    if (!chosen.length) return set({ problem: t("queue.no_size") });
    const after = Number(botsAfter.value);
    if (bots.checked && !(Number.isInteger(after) && after >= 0 && after <= 3600)) return set({ problem: t("queue.bad_seconds") });
    keepPrefs({ type: type.value, sizes: chosen, rated: rated.checked, bots: bots.checked, botsAfter: after });
    Object.assign(kept, prefs());
    acted = true;
    join({ type: type.value, players: chosen, rated: rated.checked, bots_after_seconds: bots.checked ? after : null }, nameToMake);
  };

  const searching = h("p", { id: "queue-searching" });
  // Said to screen readers once each time the wait starts or ends: a live region that is
  // always there (one shown at the moment it fills is often not read).
  const said = h("p", { id: "queue-said", class: "visually-hidden", "aria-live": "polite" });
  const waited = h("p", { id: "queue-waited" });
  const cancel = h("button", { type: "button", id: "queue-cancel", onclick: () => {
    acted = true;
    leave();
  } }, t("queue.cancel"));
  const waiting = h("div", { id: "queue-waiting", hidden: true }, searching, waited, cancel);
  const found = h("p", { id: "queue-found", hidden: true });
  const panel = h("section", { id: "play-now", "aria-labelledby": "play-now-title" },
    h("h3", { id: "play-now-title" }, t("queue.title")),
    h("p", { class: "about" }, t("queue.about")),
    form, waiting, found, problem, said);

  let shownSearch = "";
  let wasWaiting = null;
  let acted = false; // the reader's own join or cancel: only then does the focus follow
  const tick = () => {
    if (state.status !== "waiting" || !state.standing) return;
    waited.textContent = t("queue.waited", Math.max(0, Math.floor((Date.now() - state.since) / 1000)));
  };
  const render = () => {
    const isWaiting = Boolean(state.status === "waiting" || (state.status === "busy" && state.standing));
    // The control just used disappears with its part of the panel: the keyboard goes on from
    // the one that replaces it (Cancel once waiting, Play now once not), not from the page's top.
    const active = document.activeElement;
    const focusHere = acted && isWaiting !== wasWaiting && (panel.contains(active) || active === document.body);
    wasWaiting = isWaiting;
    form.hidden = isWaiting;
    waiting.hidden = !isWaiting;
    joinButton.disabled = state.status === "busy";
    cancel.disabled = state.status === "busy";
    if (isWaiting && state.standing) {
      const s = state.standing;
      const line = t("queue.searching", gameName(s.type), s.players, s.rated, s.bots_after_seconds);
      if (line !== shownSearch) searching.textContent = said.textContent = shownSearch = line;
      tick();
    } else {
      if (shownSearch && acted && state.status === "idle") said.textContent = t("queue.left"); // the reader's Cancel
      shownSearch = "";
      searching.textContent = "";
    }
    found.hidden = !state.found;
    replace(found, state.found
      ? [t("queue.found"), " ", h("a", { href: `#/games/${state.found.game_id}`, id: "queue-found-link" }, t("queue.open", state.found.seat))]
      : []);
    problem.hidden = !state.problem;
    if (problem.textContent !== state.problem) problem.textContent = state.problem; // an alert is said once
    if (focusHere) (isWaiting ? cancel : joinButton).focus();
    if (state.status !== "busy") acted = false;
  };
  const ticker = setInterval(tick, 1000);
  const reread = () => readQueue(); // another player imported, or a new key
  onQueue(render);
  onPlayer(reread);
  render();
  if (state.status !== "busy") readQueue();
  return {
    panel,
    stop: () => {
      clearInterval(ticker);
      offQueue(render);
      offPlayer(reread);
      if (state.status !== "waiting") set({ problem: "" }); // a stale message is not shown on the next visit
    },
  };
}
