// The lobby: the game types, a form to create a table (you, bots, open seats, options), this
// browser's tables and the tables waiting for players; and the page that takes a shared seat.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { has, t } from "./i18n.js";
import { problemText } from "./problems.js";
import { keepSeat, mySeats, seatOf } from "./seats.js";
import { gameName } from "./words.js";

export const lobby = { types: [], waiting: [] };

const NAME_KEY = "cardroom.name";
const savedName = () => localStorage.getItem(NAME_KEY) || "";

const optionLabel = (key) => (has(`option.${key}`) ? t(`option.${key}`) : t("option.other", key));

export function showLobby(root) {
  replace(root, h("section", { id: "lobby" },
    h("h1", {}, t("lobby.title")),
    h("form", { id: "create", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t("lobby.new")), h("p", {}, t("lobby.loading"))),
    h("section", { "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, t("lobby.mine")), h("ul", { id: "mine" })),
    h("section", { "aria-labelledby": "waiting-title" }, h("h2", { id: "waiting-title" }, t("lobby.waiting")), h("ul", { id: "waiting" })),
    h("section", { "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, t("lobby.games")), h("ul", { id: "game-types" }))));
  load(root);
  return () => {};
}

async function load(root) {
  try {
    const { data } = await api.gameTypes();
    lobby.types = data;
  } catch (error) {
    replace(root.querySelector("#create"), h("p", { role: "alert" }, `${t("lobby.cannot_load")} ${problemText(error)}`));
    return;
  }
  renderTypes(root);
  renderForm(root);
  renderMine(root);
  renderWaiting(root);
}

function renderTypes(root) {
  // Each game described, with its guide a click away.
  replace(root.querySelector("#game-types"), lobby.types.map((type) => h("li", { "data-type": type.id },
    h("h3", {}, gameName(type.id)),
    has(`about.${type.id}`) ? h("p", { class: "about" }, t(`about.${type.id}`)) : null,
    h("p", { class: "facts-line" }, `${t("lobby.players_range", type.min_players, type.max_players)} · ${t("lobby.bots", type.bot_levels)}`),
    Object.keys(type.options).length
      ? h("ul", { class: "options" }, Object.keys(type.options).map((key) => h("li", { "data-option": key }, optionLabel(key)))) : null,
    h("p", {}, h("a", { class: "how-to-play", href: `#/rules/${type.id}` }, t("lobby.how", gameName(type.id)))))));
}

function renderForm(root) {
  const form = root.querySelector("#create");
  const type = h("select", { id: "type", name: "type" }, lobby.types.map((gameType) =>
    h("option", { value: gameType.id }, gameName(gameType.id))));
  const players = h("select", { id: "players", name: "players" });
  const seats = h("div", { id: "seat-rows" });
  const options = h("div", { id: "options" });
  const name = h("input", { id: "name", name: "name", required: true, maxlength: 64, autocomplete: "nickname", value: savedName() });
  const problem = h("p", { id: "create-problem", role: "alert", hidden: true });
  const about = h("p", { id: "type-about", class: "about", "aria-live": "polite" });
  const refresh = () => {
    const gameType = lobby.types.find((t) => t.id === type.value);
    const current = Number(players.value) || gameType.min_players;
    replace(players, range(gameType.min_players, gameType.max_players).map((n) =>
      h("option", { value: n, selected: n === Math.min(Math.max(current, gameType.min_players), gameType.max_players) }, n)));
    replace(seats, seatRows(gameType, Number(players.value)));
    replace(options, optionInputs(gameType));
    replace(about, has(`about.${gameType.id}`) ? t(`about.${gameType.id}`) : "", " ",
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
    h("div", { class: "row" }, h("label", { for: "name" }, `${t("lobby.name")} `), name),
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
      const label = h("label", { for: id }, ` ${optionLabel(key)} `);
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
  const name = form.querySelector("#name").value.trim();
  localStorage.setItem(NAME_KEY, name);
  const seats = [{ kind: "human", name }];
  for (const select of form.querySelectorAll("select.seat-kind")) {
    const [kind, level] = select.value.split(":");
    seats.push(kind === "bot" ? { kind, level } : { kind });
  }
  const button = form.querySelector("#create-table");
  button.disabled = true;
  try {
    const { data } = await api.create({ type: gameType.id, seats, options: formOptions(form) });
    keepSeat(data.id, { seat: data.tokens[0].seat, token: data.tokens[0].token, name, invites: data.invites || [] });
    location.hash = `#/games/${data.id}`;
  } catch (error) {
    problem.hidden = false;
    const fields = error.problem.errors ? ` (${Object.keys(error.problem.errors).join(", ")})` : "";
    problem.textContent = t("lobby.not_created", `${problemText(error)}${fields}`);
    button.disabled = false;
  }
}

function tableItem(game, extra) {
  return h("li", { "data-game": game.id },
    h("a", { href: `#/games/${game.id}` }, gameName(game.type)), ` · ${t(`status.${game.status}.short`)}`, extra ? ` · ${extra}` : "",
    game.status === "finished" ? [" · ", h("a", { class: "replay", href: `#/replay/${game.id}` }, t("lobby.replay"))] : null);
}

async function renderMine(root) {
  const list = root.querySelector("#mine");
  const seats = mySeats().slice(0, 20);
  if (!seats.length) return replace(list, h("li", { class: "none" }, t("lobby.none_yet")));
  const items = await Promise.all(seats.map(async (entry) => {
    try {
      const { data } = await api.game(entry.game, entry.token);
      return tableItem(data, t("lobby.seat_of", entry.seat));
    } catch {
      return null; // a game this server no longer knows
    }
  }));
  replace(list, items.filter(Boolean));
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
  const problem = h("p", { id: "problem", role: "alert", hidden: true });
  const name = h("input", { id: "join-name", required: true, maxlength: 64, autocomplete: "nickname", value: savedName() });
  const form = h("form", { id: "join" },
    h("h1", {}, t("join.title", Number(seat))),
    held ? h("p", {}, t("join.held"), h("a", { href: `#/games/${gameId}` }, t("join.held_link", held.seat)), ".") : null,
    h("div", { class: "row" }, h("label", { for: "join-name" }, `${t("lobby.name")} `), name),
    problem,
    h("button", { type: "submit", id: "join-seat" }, t("join.sit")));
  form.onsubmit = async (e) => {
    e.preventDefault();
    localStorage.setItem(NAME_KEY, name.value.trim());
    try {
      const { data } = await api.join(gameId, Number(seat), name.value.trim(), invite);
      keepSeat(gameId, { seat: data.seat, token: data.token, name: name.value.trim(), invites: [] });
      location.hash = `#/games/${gameId}`;
    } catch (error) {
      problem.hidden = false;
      problem.textContent = problemText(error);
    }
  };
  replace(root, form);
  return () => {};
}
