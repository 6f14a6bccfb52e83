// @cardroom/client against a live server (CARDROOM_URL; tests/clients/test_typescript_client.py
// starts one and runs these): a whole game, a stream cut midway that resumes, a typed problem.
import assert from "node:assert/strict";
import { createServer, connect, type Socket } from "node:net";
import { test } from "node:test";
import { Cardroom, ProblemError, firstLegalAction, type Game } from "../src/index.js";

const baseUrl = process.env["CARDROOM_URL"] ?? "http://127.0.0.1:8000";

async function playToTheEnd(seat: ReturnType<Awaited<ReturnType<Cardroom["createGame"]>>["seat"]>) {
  const myTurn = (game: Game) =>
    game.you !== undefined && game.to_act.includes(game.you.seat) && game.you.legal_actions.length > 0;
  let game = await seat.view();
  if (myTurn(game)) await seat.act(firstLegalAction(game));
  for await (const _event of seat.events()) {
    game = await seat.view();
    if (myTurn(game)) await seat.act(firstLegalAction(game));
  }
  return seat.view();
}

test("a whole game is played through the client", async () => {
  const cr = new Cardroom({ baseUrl });
  const table = await cr.createGame("trick_and_snipers", [
    { kind: "human", name: "Ann" }, { kind: "bot", level: "basic" }, { kind: "bot", level: "basic" },
  ]);
  const final = await playToTheEnd(table.seat(0));
  assert.equal(final.status, "finished");
  assert.ok(final.result && final.result.winners.length > 0);
});

// A proxy on 127.0.0.1 in front of the server that can cut every connection through it.
async function cuttingProxy(target: URL) {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", () => undefined).on("close", () => open.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    cut: () => open.forEach((socket) => socket.destroy()),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

test("a stream cut midway resumes with no event lost or repeated", async () => {
  const table = await new Cardroom({ baseUrl }).createGame("trick_and_snipers", [
    { kind: "bot", level: "random" }, { kind: "bot", level: "random" }, { kind: "bot", level: "random" },
  ]);
  const proxy = await cuttingProxy(new URL(baseUrl));
  const seen: number[] = [];
  let cuts = 0;
  for await (const event of new Cardroom({ baseUrl: proxy.url }).stream(table.id, undefined)) {
    seen.push(event.version);
    if (seen.length % 8 === 0 && cuts < 3) {
      proxy.cut();
      cuts++;
    }
  }
  await proxy.close();
  const final = await new Cardroom({ baseUrl }).game(table.id);
  assert.equal(cuts, 3);
  assert.deepEqual(seen, Array.from({ length: final.version }, (_, i) => i + 1));
});

test("a refused action is a typed problem", async () => {
  const cr = new Cardroom({ baseUrl });
  const table = await cr.createGame("trick_and_snipers", [
    { kind: "human", name: "Ann" }, { kind: "bot", level: "basic" }, { kind: "bot", level: "basic" },
  ]);
  await assert.rejects(table.seat(0).act({ type: "pass_relics" }), (error: unknown) => {
    assert.ok(error instanceof ProblemError);
    assert.equal(error.status, 409);
    assert.equal(error.code, "illegal-action");
    return true;
  });
});
