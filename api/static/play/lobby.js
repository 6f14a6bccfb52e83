// The lobby: the game types, a form to create a table (you, bots, open seats, options), this
// browser's tables and the tables waiting for players; and the page that takes a shared seat.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { keepSeat, mySeats, seatOf } from "./seats.js";
import { gameName } from "./words.js";

export const lobby = { types: [], waiting: [] };

const NAME_KEY = "cardroom.name";
const savedName = () => localStorage.getItem(NAME_KEY) || "";

const OPTION_HELP = {
  first_lead_snake_allowed: "the first lead may be a snake",
  first_leader: "first leader (seat number; empty: random)",
  turn_seconds: "seconds per turn (empty: no timer)",
  max_timeouts: "timeouts in a row before a bot takes over",
};

export function showLobby(root) {
  replace(root, h("section", { id: "lobby" },
    h("h1", {}, "Sit down at a table"),
    h("form", { id: "create", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, "New table"), h("p", {}, "Loading game types…")),
    h("section", {}, h("h2", {}, "Your tables"), h("ul", { id: "mine" })),
    h("section", {}, h("h2", {}, "Tables waiting for players"), h("ul", { id: "waiting" })),
    h("section", {}, h("h2", {}, "The games"), h("ul", { id: "game-types" }))));
  load(root);
  return () => {};
}

async function load(root) {
  try {
    const { data } = await api.gameTypes();
    lobby.types = data;
  } catch (error) {
    replace(root.querySelector("#create"), h("p", { role: "alert" }, `Cannot load the games: ${error.message}`));
    return;
  }
  renderTypes(root);
  renderForm(root);
  renderMine(root);
  renderWaiting(root);
}

function renderTypes(root) {
  replace(root.querySelector("#game-types"), lobby.types.map((t) => h("li", { "data-type": t.id },
    h("b", {}, t.name), ` · ${t.min_players}–${t.max_players} players · bots: ${t.bot_levels.join(", ")}`,
    Object.keys(t.options).length
      ? h("span", { class: "options" }, ` · options: ${Object.keys(t.options).join(", ")}`) : null)));
}

function renderForm(root) {
  const form = root.querySelector("#create");
  const type = h("select", { id: "type", name: "type" }, lobby.types.map((t) =>
    h("option", { value: t.id }, t.name)));
  const players = h("select", { id: "players", name: "players" });
  const seats = h("div", { id: "seat-rows" });
  const options = h("div", { id: "options" });
  const name = h("input", { id: "name", name: "name", required: true, maxlength: 64, autocomplete: "nickname", value: savedName() });
  const problem = h("p", { id: "create-problem", role: "alert", hidden: true });
  const refresh = () => {
    const gameType = lobby.types.find((t) => t.id === type.value);
    const current = Number(players.value) || gameType.min_players;
    replace(players, range(gameType.min_players, gameType.max_players).map((n) =>
      h("option", { value: n, selected: n === Math.min(Math.max(current, gameType.min_players), gameType.max_players) }, n)));
    replace(seats, seatRows(gameType, Number(players.value)));
    replace(options, optionInputs(gameType));
  };
  type.addEventListener("change", refresh);
  players.addEventListener("change", () => {
    const gameType = lobby.types.find((t) => t.id === type.value);
    replace(seats, seatRows(gameType, Number(players.value)));
  });
  replace(form,
    h("h2", { id: "create-title" }, "New table"),
    h("div", { class: "row" }, h("label", { for: "type" }, "Game "), type),
    h("div", { class: "row" }, h("label", { for: "players" }, "Players "), players),
    h("div", { class: "row" }, h("label", { for: "name" }, "Your name "), name),
    seats, options, problem,
    h("button", { type: "submit", id: "create-table" }, "Create table"));
  form.onsubmit = (e) => {
    e.preventDefault();
    create(form, lobby.types.find((t) => t.id === type.value), problem);
  };
  refresh();
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function seatRows(gameType, players) {
  return h("fieldset", { class: "seats" }, h("legend", {}, "Seats"),
    h("div", { class: "row" }, h("span", {}, "Seat 0: you")),
    range(1, players - 1).map((seat) => h("div", { class: "row" },
      h("label", { for: `seat-${seat}` }, `Seat ${seat} `),
      h("select", { id: `seat-${seat}`, class: "seat-kind", "data-seat": seat },
        gameType.bot_levels.map((level) => h("option", { value: `bot:${level}`, selected: level === "basic" }, `bot (${level})`)),
        h("option", { value: "open" }, "open: invite a friend")))));
}

function optionInputs(gameType) {
  return h("fieldset", { class: "options" }, h("legend", {}, "Options"),
    Object.entries(gameType.options).map(([key, fallback]) => {
      const id = `opt-${key}`;
      const label = h("label", { for: id }, ` ${OPTION_HELP[key] || key.replace(/_/g, " ")} `);
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
    const fields = error.problem.errors ? ` (${JSON.stringify(error.problem.errors)})` : "";
    problem.textContent = `The table was not created: ${error.message}${fields}`;
    button.disabled = false;
  }
}

function tableItem(game, extra) {
  return h("li", { "data-game": game.id },
    h("a", { href: `#/games/${game.id}` }, gameName(game.type)), ` · ${game.status}`, extra ? ` · ${extra}` : "");
}

async function renderMine(root) {
  const list = root.querySelector("#mine");
  const seats = mySeats().slice(0, 20);
  if (!seats.length) return replace(list, h("li", { class: "none" }, "None yet."));
  const items = await Promise.all(seats.map(async (entry) => {
    try {
      const { data } = await api.game(entry.game, entry.token);
      return tableItem(data, `seat ${entry.seat}`);
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
      ? data.games.map((game) => tableItem(game, seatOf(game.id) ? "yours" : "open seats need an invite link"))
      : h("li", { class: "none" }, "None right now."));
  } catch (error) {
    replace(list, h("li", { role: "alert" }, error.message));
  }
}

export function showJoin(root, gameId, seat, invite) {
  const held = seatOf(gameId);
  const problem = h("p", { id: "problem", role: "alert", hidden: true });
  const name = h("input", { id: "join-name", required: true, maxlength: 64, autocomplete: "nickname", value: savedName() });
  const form = h("form", { id: "join" },
    h("h1", {}, `Take seat ${seat}`),
    held ? h("p", {}, "This browser already holds ", h("a", { href: `#/games/${gameId}` }, `seat ${held.seat} at this table`), ".") : null,
    h("div", { class: "row" }, h("label", { for: "join-name" }, "Your name "), name),
    problem,
    h("button", { type: "submit", id: "join-seat" }, "Sit down"));
  form.onsubmit = async (e) => {
    e.preventDefault();
    localStorage.setItem(NAME_KEY, name.value.trim());
    try {
      const { data } = await api.join(gameId, Number(seat), name.value.trim(), invite);
      keepSeat(gameId, { seat: data.seat, token: data.token, name: name.value.trim(), invites: [] });
      location.hash = `#/games/${gameId}`;
    } catch (error) {
      problem.hidden = false;
      problem.textContent = {
        forbidden: "This invite link is not valid for that seat.",
        "seat-taken": "Someone has already taken this seat.",
        "not-found": "There is no such table.",
      }[error.code] || error.message;
    }
  };
  replace(root, form);
  return () => {};
}
