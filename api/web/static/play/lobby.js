// The lobby: who you play as (made on the first visit that names it or takes a seat), "Play
// now" (the matchmaker's queue, playnow.js), the game types, a form to create a table (you,
// bots, open seats, options), your tables (the player's, live, and any this browser holds
// without it) and the tables waiting for players; and the page that takes a shared seat.

import { api } from "./api.js";
import { loadCatalog } from "./catalog.js";
import { h, replace } from "./dom.js";
import { has, inGame, t } from "./i18n.js";
import { welcomeForm } from "./me.js";
import { MyTables } from "./mine.js";
import { playNowPanel, queueNotice } from "./playnow.js";
import { ensurePlayer, offPlayer, onPlayer, player, suggestedName } from "./player.js";
import { problemText } from "./problems.js";
import { keepSeat, mySeats, seatOf } from "./seats.js";
import { gameAbout, gameName } from "./words.js";

export const lobby = { types: [], waiting: [] };

const MINE_IN_LOBBY = 5; // the rest are a click away, on #/tables

// An option in the game's words (its own options), else the page's (every table's), else its id.
const optionLabel = (type, key) => inGame(type, () => (has(`option.${key}`) ? t(`option.${key}`) : t("option.other", key)));

export function showLobby(root) {
  const mine = h("ul", { id: "mine", "aria-labelledby": "mine-title" });
  const said = h("p", { id: "mine-said", class: "visually-hidden", "aria-live": "polite" });
  replace(root, h("section", { id: "lobby" },
    h("h1", {}, t("lobby.title")),
    h("section", { id: "me-box", "aria-labelledby": "me-box-title" },
      h("h2", { id: "me-box-title" }, t("me.title")), h("div", { id: "me-who-box" }), h("div", { id: "play-now-slot" })),
    h("form", { id: "create", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t("lobby.new")), h("p", {}, t("lobby.loading"))),
    h("section", { "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, t("lobby.mine")), said, mine,
      h("p", { id: "all-mine" }, h("a", { href: "#/tables" }, t("mine.all"))),
      h("div", { id: "here" })),
    h("section", { "aria-labelledby": "waiting-title" }, h("h2", { id: "waiting-title" }, t("lobby.waiting")), h("ul", { id: "waiting" })),
    h("section", { "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, t("lobby.games")), h("ul", { id: "game-types" }))));
  const tables = new MyTables(mine, { pageSize: MINE_IN_LOBBY, said, onNotice: queueNotice });
  const drawMe = () => renderMe(root);
  onPlayer(drawMe);
  drawMe();
  tables.start();
  const shown = { left: false, playNow: null };
  load(root, shown);
  return () => {
    shown.left = true;
    offPlayer(drawMe);
    tables.stop();
    if (shown.playNow) shown.playNow.stop();
  };
}

// Who you play as; on a first visit, the name to play under (or a key from another device).
function renderMe(root) {
  const box = root.querySelector("#me-who-box");
  if (!box) return;
  const me = player();
  root.querySelector("#all-mine").hidden = !me;
  replace(box, me
    ? h("p", { id: "me-who" }, t("me.as_before"), h("strong", { id: "me-name" }, me.name), ". ",
      h("a", { href: "#/me" }, t("me.link")))
    : [welcomeForm(() => {}), h("p", {}, h("a", { href: "#/me" }, t("me.have_key")))]);
}

async function load(root, shown) {
  try {
    lobby.types = await loadCatalog();
  } catch (error) {
    replace(root.querySelector("#create"), h("p", { role: "alert" }, `${t("lobby.cannot_load")} ${problemText(error)}`));
    return;
  }
  if (shown.left) return; // the reader moved on while the types loaded
  shown.playNow = playNowPanel(lobby.types, nameToMake);
  replace(root.querySelector("#play-now-slot"), shown.playNow.panel);
  renderTypes(root);
  renderForm(root);
  renderHere(root);
  renderWaiting(root);
}

function renderTypes(root) {
  // Each game described, with its guide a click away.
  replace(root.querySelector("#game-types"), lobby.types.map((type) => h("li", { "data-type": type.id },
    h("h3", {}, gameName(type.id)),
    gameAbout(type.id) ? h("p", { class: "about" }, gameAbout(type.id)) : null,
    h("p", { class: "facts-line" }, `${t("lobby.players_range", type.min_players, type.max_players)} · ${t("lobby.bots", type.bot_levels)}`),
    Object.keys(type.options).length
      ? h("ul", { class: "options" }, Object.keys(type.options).map((key) => h("li", { "data-option": key }, optionLabel(type.id, key)))) : null,
    h("p", {}, h("a", { class: "how-to-play", href: `#/rules/${type.id}` }, t("lobby.how", gameName(type.id))),
      " · ", h("a", { class: "leaderboard-link", href: `#/leaderboard/${type.id}` }, t("lobby.leaderboard", gameName(type.id)))))));
}

function renderForm(root) {
  const form = root.querySelector("#create");
  const type = h("select", { id: "type", name: "type" }, lobby.types.map((gameType) =>
    h("option", { value: gameType.id }, gameName(gameType.id))));
  const players = h("select", { id: "players", name: "players" });
  const seats = h("div", { id: "seat-rows" });
  const options = h("div", { id: "options" });
  const problem = h("p", { id: "create-problem", role: "alert", hidden: true });
  const about = h("p", { id: "type-about", class: "about", "aria-live": "polite" });
  const refresh = () => {
    const gameType = lobby.types.find((t) => t.id === type.value);
    const current = Number(players.value) || gameType.min_players;
    replace(players, range(gameType.min_players, gameType.max_players).map((n) =>
      h("option", { value: n, selected: n === Math.min(Math.max(current, gameType.min_players), gameType.max_players) }, n)));
    replace(seats, seatRows(gameType, Number(players.value)));
    replace(options, optionInputs(gameType));
    replace(about, gameAbout(gameType.id) || "", " ",
      h("a", { href: `#/rules/${gameType.id}` }, t("lobby.how", gameName(gameType.id))));
  };
  type.addEventListener("change", refresh);
  players.addEventListener("change", () => {
    const gameType = lobby.types.find((t) => t.id === type.value);
    replace(seats, seatRows(gameType, Number(players.value)));
  });
  replace(form,
    h("h2", { id: "create-title" }, t("lobby.new")),
    h("div", { class: "row" }, h("label", { for: "type" }, `${t("lobby.game")} `), type),
    about,
    h("div", { class: "row" }, h("label", { for: "players" }, `${t("lobby.players")} `), players),
    seats, options, problem,
    h("button", { type: "submit", id: "create-table" }, t("lobby.create")));
  form.onsubmit = (e) => {
    e.preventDefault();
    create(form, lobby.types.find((t) => t.id === type.value), problem);
  };
  refresh();
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function seatRows(gameType, players) {
  return h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")),
    h("div", { class: "row" }, h("span", {}, t("lobby.seat0"))),
    range(1, players - 1).map((seat) => h("div", { class: "row" },
      h("label", { for: `seat-${seat}` }, `${t("lobby.seat", seat)} `),
      h("select", { id: `seat-${seat}`, class: "seat-kind", "data-seat": seat },
        gameType.bot_levels.map((level) => h("option", { value: `bot:${level}`, selected: level === "basic" }, t("lobby.bot", level))),
        h("option", { value: "open" }, t("lobby.open"))))));
}

function optionInputs(gameType) {
  return h("fieldset", { class: "options" }, h("legend", {}, t("lobby.options")),
    Object.entries(gameType.options).map(([key, fallback]) => {
      const id = `opt-${key}`;
      const label = h("label", { for: id }, ` ${optionLabel(gameType.id, key)} `);
      if (typeof fallback === "boolean") {
        return h("div", { class: "row" }, h("input", { id, type: "checkbox", "data-option": key, checked: fallback }), label);
      }
      return h("div", { class: "row" }, label,
        h("input", { id, type: "number", inputmode: "numeric", "data-option": key, placeholder: fallback === null ? "" : String(fallback) }));
    }));
}

function formOptions(form) {
  const options = {};
  for (const input of form.querySelectorAll("[data-option]")) {
    if (input.type === "checkbox") options[input.dataset.option] = input.checked;
    else if (input.value.trim() !== "") options[input.dataset.option] = Number(input.value);
  }
  return options;
}

async function create(form, gameType, problem) {
  const button = form.querySelector("#create-table");
  button.disabled = true;
  const refused = (error) => {
    problem.hidden = false;
    const fields = error.problem && error.problem.errors ? ` (${Object.keys(error.problem.errors).join(", ")})` : "";
    problem.textContent = t("lobby.not_created", `${problemText(error)}${fields}`);
    button.disabled = false;
  };
  const others = [...form.querySelectorAll("select.seat-kind")].map((select) => {
    const [kind, level] = select.value.split(":");
    return kind === "bot" ? { kind, level } : { kind };
  });
  const body = (you) => ({ type: gameType.id, seats: [you, ...others], options: formOptions(form) });
  let me;
  try {
    me = await ensurePlayer(nameToMake());
  } catch (error) {
    if (error.code !== "rate-limited") return refused(error);
    return createAnonymous(body, refused); // too many new players from this network just now
  }
  try {
    const { data } = await api.create(body({ kind: "human", player: "me" }), me.key);
    keepSeat(data.id, { seat: 0, player: me.id, name: me.name, invites: data.invites || [] });
    location.hash = `#/games/${data.id}`;
  } catch (error) {
    refused(error);
  }
}

// The name typed in the first visit's form, if it is on the page; else one suggested.
function nameToMake() {
  const typed = document.querySelector("#welcome #name");
  return (typed && typed.value.trim()) || suggestedName(t("me.default_name"));
}

// A table without a player (the way before players): its seat token kept in this browser.
async function createAnonymous(body, refused) {
  const name = nameToMake();
  try {
    const { data } = await api.create(body({ kind: "human", name }));
    keepSeat(data.id, { seat: data.tokens[0].seat, token: data.tokens[0].token, name, invites: data.invites || [] });
    location.hash = `#/games/${data.id}`;
  } catch (error) {
    refused(error);
  }
}

function tableItem(game, extra) {
  return h("li", { "data-game": game.id },
    h("a", { href: `#/games/${game.id}` }, gameName(game.type)), ` · ${t(`status.${game.status}.short`)}`, extra ? ` · ${extra}` : "",
    game.status === "finished" ? [" · ", h("a", { class: "replay", href: `#/replay/${game.id}` }, t("lobby.replay"))] : null);
}

// Tables this browser holds with a seat token of its own (taken without a player).
async function renderHere(root) {
  const seats = mySeats().filter((entry) => entry.token).slice(0, 20);
  if (!seats.length) return;
  const items = await Promise.all(seats.map(async (entry) => {
    try {
      const { data } = await api.game(entry.game, entry.token);
      return tableItem(data, t("lobby.seat_of", entry.seat));
    } catch {
      return null; // a game this server no longer knows
    }
  }));
  const here = root.querySelector("#here");
  if (here && items.some(Boolean)) {
    replace(here, h("h3", { id: "here-title" }, t("lobby.here")), h("ul", { id: "mine-here", "aria-labelledby": "here-title" }, items.filter(Boolean)));
  }
}

async function renderWaiting(root) {
  const list = root.querySelector("#waiting");
  try {
    const { data } = await api.games("waiting");
    lobby.waiting = data.games;
    replace(list, data.games.length
      ? data.games.map((game) => tableItem(game, seatOf(game.id) ? t("lobby.yours") : t("lobby.needs_invite")))
      : h("li", { class: "none" }, t("lobby.none_now")));
  } catch (error) {
    replace(list, h("li", { role: "alert" }, problemText(error)));
  }
}

export function showJoin(root, gameId, seat, invite) {
  const held = seatOf(gameId);
  const me = player();
  const problem = h("p", { id: "problem", role: "alert", hidden: true });
  const name = me ? null : h("input", { id: "join-name", required: true, maxlength: 64, autocomplete: "nickname",
    value: suggestedName(t("me.default_name")) });
  const form = h("form", { id: "join" },
    h("h1", {}, t("join.title", Number(seat))),
    held ? h("p", {}, t("join.held"), h("a", { href: `#/games/${gameId}` }, t("join.held_link", held.seat)), ".") : null,
    me ? h("p", { id: "join-as" }, t("join.as", me.name))
      : h("div", { class: "row" }, h("label", { for: "join-name" }, `${t("lobby.name")} `), name),
    problem,
    h("button", { type: "submit", id: "join-seat" }, t("join.sit")));
  const refused = (error) => {
    problem.hidden = false;
    problem.textContent = problemText(error);
  };
  form.onsubmit = async (e) => {
    e.preventDefault();
    let sitter;
    try {
      sitter = me || await ensurePlayer(name.value.trim());
    } catch (error) {
      if (error.code !== "rate-limited") return refused(error);
      return joinAnonymous(gameId, Number(seat), name.value.trim(), invite, refused);
    }
    try {
      await api.join(gameId, Number(seat), undefined, invite, sitter.key);
      keepSeat(gameId, { seat: Number(seat), player: sitter.id, name: sitter.name, invites: [] });
      location.hash = `#/games/${gameId}`;
    } catch (error) {
      refused(error);
    }
  };
  replace(root, form);
  return () => {};
}

// A seat without a player (too many new players from this network just now).
async function joinAnonymous(gameId, seat, name, invite, refused) {
  try {
    const { data } = await api.join(gameId, seat, name, invite);
    keepSeat(gameId, { seat: data.seat, token: data.token, name, invites: [] });
    location.hash = `#/games/${gameId}`;
  } catch (error) {
    refused(error);
  }
}
