// The public HTTP API, as any client calls it: JSON bodies, bearer tokens, idempotency keys,
// and problems (RFC 9457) turned into errors that carry their `code` (the page words an error by
// its code, in the reader's language; the problem's English `detail` stays for developers).

import { reachable, unreachable } from "./connection.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || (status === 0 ? "network" : "unknown");
    this.problem = problem;
  }
}

function headersFor(token, extra = {}) {
  const headers = { Accept: "application/json", ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

async function send(method, path, { token, body, headers = {}, idempotent = false } = {}) {
  const extra = { ...headers };
  if (body !== undefined) extra["Content-Type"] = "application/json";
  // A fresh key per intent: a retry after a network error reuses it, so nothing happens twice.
  if (idempotent) extra["Idempotency-Key"] = crypto.randomUUID();
  const init = {
    method,
    headers: headersFor(token, extra),
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  };
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, init);
      break;
    } catch (error) {
      if (attempt >= 1 || (method !== "GET" && !idempotent)) {
        unreachable();
        throw new ApiError(0, { detail: "cannot reach the server" });
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  reachable();
  if (response.status === 304) return { status: 304, etag: response.headers.get("ETag") };
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, data || { detail: response.statusText });
  return { status: response.status, etag: response.headers.get("ETag"), data };
}

export const api = {
  gameTypes: () => send("GET", "/game-types"),
  games: (status) => send("GET", `/games?limit=20${status ? `&status=${status}` : ""}`),
  game: (id, token, etag) =>
    send("GET", `/games/${id}`, { token, headers: etag ? { "If-None-Match": etag } : {} }),
  events: (id, token, after, limit = 1000) =>
    send("GET", `/games/${id}/events?after=${after}&limit=${limit}`, { token }),
  create: (body, token) => send("POST", "/games", { body, token, idempotent: true }),
  join: (id, seat, name, invite, token) =>
    send("POST", `/games/${id}/seats/${seat}/join`, { body: { name, invite }, token }),
  act: (id, token, action) =>
    send("POST", `/games/${id}/actions`, { token, body: action, idempotent: true }),
  leave: (id, seat, token) => send("POST", `/games/${id}/seats/${seat}/leave`, { token }),
  streamTicket: (id, token) => send("POST", `/games/${id}/stream-ticket`, { token }),
  replay: (id, version, token) => send("GET", `/games/${id}/replay?version=${version}`, { token }),
  audit: (id) => send("GET", `/games/${id}/audit`),
  auditKey: () => send("GET", "/audit-key"),
  // players: the key is the token of each of these calls
  newPlayer: (name) => send("POST", "/players", { body: { name } }),
  me: (key) => send("GET", "/players/me", { token: key }),
  newKey: (key) => send("POST", "/players/me/key", { token: key }),
  myGames: (key, { status, mine, cursor, limit = 20 } = {}, etag) => {
    const query = new URLSearchParams({ limit });
    if (status) query.set("status", status);
    if (mine) query.set("turn", "mine");
    if (cursor) query.set("cursor", cursor);
    return send("GET", `/me/games?${query}`, { token: key, headers: etag ? { "If-None-Match": etag } : {} });
  },
  noticeTicket: (key) => send("POST", "/me/stream-ticket", { token: key }),
  // the matchmaking queue ("play now"): one per player
  joinQueue: (key, body) => send("POST", "/me/queue", { token: key, body }),
  myQueue: (key) => send("GET", "/me/queue", { token: key }),
  leaveQueue: (key) => send("DELETE", "/me/queue", { token: key }),
  leaderboard: (type, cursor, limit = 20) => {
    const query = new URLSearchParams({ limit });
    if (cursor) query.set("cursor", cursor);
    return send("GET", `/leaderboards/${encodeURIComponent(type)}?${query}`);
  },
};

// A finished game's export: its header and every event with the fields the hash chain covers.
export async function exportOf(id) {
  let response;
  try {
    response = await fetch(`/games/${id}/export`, { cache: "no-store", credentials: "omit" });
  } catch {
    unreachable();
    throw new ApiError(0, { detail: "cannot reach the server" });
  }
  reachable();
  const text = await response.text();
  if (!response.ok) {
    let problem = {};
    try { problem = JSON.parse(text); } catch { /* not a problem document */ }
    throw new ApiError(response.status, problem);
  }
  const lines = text.split("\n").filter((line) => line.trim());
  return { header: JSON.parse(lines[0]), events: lines.slice(1).map((line) => JSON.parse(line)), lines };
}

// Every event of a game the caller may see, oldest first, page by page.
export async function allEvents(id, token, after = 0) {
  const events = [];
  for (;;) {
    const { data } = await api.events(id, token, after);
    events.push(...data.events);
    if (data.events.length === 0 || after + data.events.length >= data.version) return events;
    after = data.events[data.events.length - 1].version;
  }
}
