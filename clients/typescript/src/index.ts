// Cardroom's official TypeScript client: an ES module for Node 20+ and browsers, on fetch.
// Its types are openapi-typescript's, generated from openapi.yaml into spec.ts.
import type { components } from "./spec.js";
import { messages } from "./sse.js";

type Schemas = components["schemas"];
export type Game = Schemas["Game"];
export type CreatedGame = Schemas["CreatedGame"];
export type Action = Schemas["Action"];
export type ActionResult = Schemas["ActionResult"];
export type GameEvent = Schemas["Event"];
export type EventPage = Schemas["EventPage"];
export type GameType = Schemas["GameType"];
export type GameTypeId = Schemas["GameTypeId"];
export type SeatRequest = Schemas["SeatRequest"];
export type SeatToken = Schemas["SeatToken"];
export type Problem = Schemas["Problem"];
export type ProblemCode = Problem["code"];
export type ActionTemplate = Schemas["ActionTemplate"];

const ATTEMPTS = 4; // a call that may be repeated is sent at most this many times
const RETRY_STATUSES = new Set([429, 502, 503]);
const MAX_WAIT_MS = 10_000;
const STREAM_GIVE_UP_MS = 60_000;

/** Every problem+json answer, with its stable `code`. */
export class ProblemError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly code: ProblemCode | undefined;
  readonly body: Partial<Problem> & Record<string, unknown>;

  constructor(status: number, body: Partial<Problem> & Record<string, unknown>) {
    super(`${status} ${body.code ?? ""}: ${body.detail ?? body.title ?? ""}`);
    this.name = "ProblemError";
    this.status = status;
    this.body = body;
    this.type = body.type ?? "about:blank";
    this.title = body.title ?? "";
    this.detail = body.detail ?? "";
    this.code = body.code;
  }
}

/** The server could not be reached (or the connection dropped) on every try. */
export class ServerUnreachable extends Error {}

export interface CardroomOptions {
  baseUrl: string;
  key?: string;
}

interface Call {
  method: string;
  path: string;
  token?: string | undefined;
  body?: unknown;
  repeatable?: boolean; // safe to send again: a read, or a write under its own Idempotency-Key
  idempotencyKey?: string;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function waitBefore(attempt: number, response?: Response): number {
  const said = Number(response?.headers.get("Retry-After"));
  if (response && Number.isFinite(said) && said >= 0) return Math.min(said * 1000, MAX_WAIT_MS);
  return Math.min(200 * 2 ** attempt, MAX_WAIT_MS);
}

async function problemOf(response: Response): Promise<ProblemError> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the status says it all
  }
  return new ProblemError(response.status, { title: response.statusText, ...body });
}

async function shouldRetry(response: Response): Promise<boolean> {
  if (RETRY_STATUSES.has(response.status)) return true;
  if (response.status !== 409) return false;
  const body: unknown = await response.clone().json().catch(() => ({}));
  return (body as { code?: string }).code === "request-in-progress";
}

export class Cardroom {
  readonly baseUrl: string;
  readonly key: string | undefined;

  constructor(options: CardroomOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, "");
    this.key = options.key;
  }

  /** One call, tried again (when repeatable) after 429, 502, 503 or a dropped connection. */
  async send(call: Call): Promise<Response> {
    const last = call.repeatable ? ATTEMPTS - 1 : 0;
    const headers: Record<string, string> = {};
    if (call.token) headers["Authorization"] = `Bearer ${call.token}`;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    if (call.idempotencyKey) headers["Idempotency-Key"] = call.idempotencyKey;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(this.baseUrl + call.path, {
          method: call.method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
        });
      } catch (error) {
        if (attempt >= last) throw new ServerUnreachable(`${call.method} ${call.path}: ${error}`);
        await sleep(waitBefore(attempt));
        continue;
      }
      if (attempt < last && (await shouldRetry(response))) {
        await sleep(waitBefore(attempt, response));
        continue;
      }
      if (response.status >= 400) throw await problemOf(response);
      return response;
    }
  }

  async json<T>(call: Call): Promise<T> {
    return (await (await this.send(call)).json()) as T;
  }

  read<T>(path: string, token: string | undefined = this.key): Promise<T> {
    return this.json<T>({ method: "GET", path, token, repeatable: true });
  }

  gameTypes(): Promise<GameType[]> {
    return this.read<GameType[]>("/game-types", undefined);
  }

  async createGame(
    type: GameTypeId,
    seats: SeatRequest[],
    options: Record<string, unknown> = {},
  ): Promise<Table> {
    const created = await this.json<CreatedGame>({
      method: "POST", path: "/games", token: this.key, body: { type, seats, options },
      repeatable: true, idempotencyKey: crypto.randomUUID(),
    });
    return new Table(this, created);
  }

  async join(gameId: string, seat: number, secret: { invite?: string; name?: string } = {}) {
    const joined = await this.json<SeatToken>({
      method: "POST", path: `/games/${gameId}/seats/${seat}/join`, token: this.key, body: secret,
    });
    return new Seat(this, gameId, joined.seat, joined.token);
  }

  game(gameId: string): Promise<Game> {
    return this.read<Game>(`/games/${gameId}`);
  }

  /** Each event after `after` as it comes, reopening after a drop with Last-Event-ID; ends
   * once the game is finished and its last event was given. */
  async *stream(gameId: string, token: string | undefined, after?: number) {
    let last = after;
    let failingSince: number | undefined;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (token) headers["Authorization"] = `Bearer ${token}`;
      if (last !== undefined) headers["Last-Event-ID"] = String(last);
      let pause: number | undefined;
      try {
        const response = await fetch(`${this.baseUrl}/games/${gameId}/events/stream`, { headers });
        if (await shouldRetry(response)) {
          pause = waitBefore(attempt, response); // 429, 503: full, or restarting
        } else if (response.status >= 400 || !response.body) {
          throw await problemOf(response);
        } else {
          for await (const message of messages(response.body)) {
            if (message.id !== undefined) last = Number(message.id);
            failingSince = undefined;
            attempt = 0;
            yield JSON.parse(message.data) as GameEvent;
          }
        }
      } catch (error) {
        if (error instanceof ProblemError) throw error;
        // dropped: reopened below, after the last event seen
      }
      try {
        const game = await this.read<Game>(`/games/${gameId}`, token);
        if (game.status === "finished" && (last ?? 0) >= game.version) return;
      } catch (error) {
        if (error instanceof ProblemError && error.code !== "unavailable") throw error;
      }
      failingSince ??= Date.now();
      if (Date.now() - failingSince > STREAM_GIVE_UP_MS) {
        throw new ServerUnreachable(`the stream of ${gameId} could not be reopened`);
      }
      await sleep(pause ?? waitBefore(Math.min(attempt, 4)));
    }
  }
}

export class Table {
  readonly id: string;
  readonly game: CreatedGame;
  readonly tokens: Map<number, string>;
  readonly invites: Map<number, string>;

  constructor(
    readonly room: Cardroom,
    created: CreatedGame,
  ) {
    this.id = created.id;
    this.game = created;
    this.tokens = new Map(created.tokens.map((t) => [t.seat, t.token]));
    this.invites = new Map(created.invites.map((i) => [i.seat, i.invite]));
  }

  /** The Seat of a human seat named at creation (or, with a key, the creating player's). */
  seat(seat: number): Seat {
    const token = this.tokens.get(seat) ?? this.room.key;
    if (token === undefined) throw new Error(`no token for seat ${seat}: not a human seat named here`);
    return new Seat(this.room, this.id, seat, token);
  }
}

export class Seat {
  constructor(
    readonly room: Cardroom,
    readonly gameId: string,
    readonly seat: number,
    public token: string,
  ) {}

  view(): Promise<Game> {
    return this.room.read<Game>(`/games/${this.gameId}`, this.token);
  }

  /** Sent under an Idempotency-Key of its own, the same on each retry: applied once. */
  act(action: Action): Promise<ActionResult> {
    return this.room.json<ActionResult>({
      method: "POST", path: `/games/${this.gameId}/actions`, token: this.token, body: action,
      repeatable: true, idempotencyKey: crypto.randomUUID(),
    });
  }

  events(after?: number): AsyncGenerator<GameEvent> {
    return this.room.stream(this.gameId, this.token, after);
  }

  async leave(): Promise<void> {
    await this.room.send({
      method: "POST", path: `/games/${this.gameId}/seats/${this.seat}/leave`, token: this.token,
    });
  }

  async rotateToken(): Promise<string> {
    const path = `/games/${this.gameId}/seats/${this.seat}/token`;
    this.token = (await this.room.json<SeatToken>({ method: "POST", path, token: this.token })).token;
    return this.token;
  }

  ticket(): Promise<{ ticket: string; expires_at: string }> {
    const path = `/games/${this.gameId}/stream-ticket`;
    return this.room.json({ method: "POST", path, token: this.token });
  }

  /** For browsers, whose EventSource cannot send Authorization: the stream opened with a
   * single-use ticket, opened again with a fresh ticket (and `after`) whenever it drops,
   * until `close()` or the game's end. */
  openEventSource(onEvent: (event: GameEvent) => void): { close(): void } {
    let source: EventSource | undefined;
    let closed = false;
    let last: number | undefined;
    let ended = false;
    const again = () => {
      if (!closed && !ended) setTimeout(() => void open(), 1000);
    };
    const open = async () => {
      let ticket: string;
      try {
        ({ ticket } = await this.ticket());
      } catch {
        return again(); // the server is unreachable for now
      }
      const after = last === undefined ? "" : `&after=${last}`;
      source = new EventSource(
        `${this.room.baseUrl}/games/${this.gameId}/events/stream?ticket=${encodeURIComponent(ticket)}${after}`,
      );
      const take = (message: MessageEvent<string>) => {
        last = Number(message.lastEventId);
        ended = message.type === "GameEnded";
        onEvent(JSON.parse(message.data) as GameEvent);
      };
      source.addEventListener("error", () => {
        source?.close(); // a ticket opens one stream only: the next needs a fresh one
        again();
      });
      for (const type of EVENT_TYPES) source.addEventListener(type, take);
    };
    void open();
    return {
      close() {
        closed = true;
        source?.close();
      },
    };
  }
}

/** The first legal template as an action, built by the rule every template follows. */
export function firstLegalAction(game: Game): Action {
  const template = game.you?.legal_actions[0];
  if (!template) throw new Error("this seat has nothing to do now");
  const action: Record<string, unknown> = { type: template.type };
  if (template.min !== undefined) action["count"] = template.min;
  else if (template.count !== undefined && template.cards) {
    action["cards"] = template.cards.slice(0, template.count);
  } else if (template.cards) action["card"] = template.cards[0];
  return action as Action;
}

// Every event type of every game (openapi.yaml's x-event-origins): an EventSource hands each
// named event only to a listener of that name.
const EVENT_TYPES = [
  "TableCreated", "FixedDecksChosen", "ServerSeedSealed", "SeatJoined", "SeatLeft", "TurnTimedOut",
  "DealCommitted", "HandDealt", "DeckSealed", "CardPlayed", "CardsDiscarded", "TrickWon",
  "PoolTaken", "DiscardAwaited", "GameEnded", "RiverCardCommitted", "RevealChosen",
  "CardPickedUp", "RoundStarted", "RiverCompleted", "CardsRevealed", "RoundScored", "RoundEnded",
  "PassCountSet", "CardsPassed", "RelicsTaken", "RelicsDeclined", "PassCountAwaited",
  "CardsReceived", "RelicPhaseStarted", "RelicsCursed", "HandPassed", "HuntStarted",
];
