// Checking a finished game in the browser, as docs/audit.md tells an outsider to: recompute every
// event's hash from the export (RFC 8785 canonical JSON, SHA-256), check each deal against its
// commitment, and verify the head's Ed25519 signature (WebCrypto) with the key of /audit-key; then
// read the server's own audit for what a browser cannot redo (re-deciding every move by the rules).
// The signature and the audit make the badge; the export (as big as the whole log) is checked on
// request.

import { api, exportOf } from "./api.js";

const encoder = new TextEncoder();
const GENESIS = "0".repeat(64);

// RFC 8785 for the values of an export (objects, arrays, strings, integers, booleans, null):
// keys sorted by UTF-16 code units (JavaScript's own string order), no whitespace.
export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
}

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
export const sha256 = async (text) => hex(await crypto.subtle.digest("SHA-256", typeof text === "string" ? encoder.encode(text) : text));
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

// docs/audit.md 5.4: the hash of one event line, in chain format 2 or 1.
export function eventHash(line, gameId, format) {
  if (format === 1) {
    const fields = { data: line.data, game_id: gameId, recorded_at: line.recorded_at.replace(/Z$/, "+00:00"),
      seat: line.seat, type: line.type, version: line.version, visible_to: line.visible_to };
    return sha256(line.prev_hash + canonical(fields));
  }
  return sha256(canonical({ chain: 2, data: line.data, game_id: gameId, nonce: line.nonce, prev_hash: line.prev_hash,
    recorded_at: line.recorded_at, seat: line.seat, type: line.type, version: line.version, visible_to: line.visible_to }));
}

async function chainHolds(header, events) {
  let previous = GENESIS;
  for (const [index, line] of events.entries()) {
    if (line.version !== index + 1 || line.prev_hash !== previous) return false;
    if ((await eventHash(line, header.game_id, header.chain_format || 1)) !== line.hash) return false;
    previous = line.hash;
  }
  return events.length > 0 && previous === header.chain_head && header.version === events.length;
}

// 5.6: the k-th DealCommitted goes with the k-th DeckSealed, commitment = SHA-256(salt ‖ deck).
async function dealsHold(events) {
  const commits = events.filter((e) => e.type === "DealCommitted");
  const sealed = events.filter((e) => e.type === "DeckSealed");
  if (!commits.length || commits.length !== sealed.length) return false;
  for (const [k, commit] of commits.entries()) {
    const deck = sealed[k].data;
    if (deck.round !== commit.data.round || !deck.salt || !deck.deck) return false;
    if ((await sha256(deck.salt + canonical(deck.deck))) !== commit.data.commitment) return false;
  }
  return true;
}

async function signatureHolds(gameId, head, version, signature, key) {
  if (!head || !signature) return false;
  const message = canonical({ chain_head: head, game_id: gameId, purpose: "cardroom-chain-head", version });
  const publicKey = await crypto.subtle.importKey("raw", fromBase64(key.public_key), { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, publicKey, fromBase64(signature), encoder.encode(message));
}

const check = (name, ok) => ({ check: name, ok: Boolean(ok) });

// The badge: the head the server's audit reports, its Ed25519 signature checked here against
// /audit-key (and the key against its id), and the audit's own verdicts (it re-decided every
// move, which a browser cannot). Resolves to {ok, checks: [{check, ok}], audit, key}; `check`
// names a verify.check.* text.
export async function verifyHead(gameId) {
  let audit;
  let key;
  try {
    [{ data: audit }, { data: key }] = await Promise.all([api.audit(gameId), api.auditKey()]);
  } catch {
    return { ok: false, checks: [check("failed_load", false)], audit: null, key: null };
  }
  const checks = [
    check("key", (await sha256(fromBase64(key.public_key))).slice(0, 16) === key.key_id && audit.key_id === key.key_id),
  ];
  try {
    checks.push(check("signature", await signatureHolds(gameId, audit.chain_head, audit.version, audit.head_signature, key)));
  } catch {
    checks.push(check("unsupported", false)); // no Ed25519 in this browser's WebCrypto
  }
  checks.push(check("audit", audit.chain_ok && audit.rules_ok && audit.state_matches
    && audit.deals_verified !== false && audit.signature_ok !== false));
  return { ok: checks.every((c) => c.ok), checks, audit, key };
}

// The deeper check, on request (it downloads the whole export): every event's hash recomputed
// here, linking up to the signed head, and every deal against its commitment.
export async function verifyEvents(gameId, audit) {
  let exported;
  try {
    exported = await exportOf(gameId);
  } catch {
    return [check("failed_load", false)];
  }
  const { header, events } = exported;
  return [
    check("chain", header.complete && (await chainHolds(header, events))),
    check("head", audit && header.chain_head === audit.chain_head && header.version === audit.version),
    check("deals", await dealsHold(events)),
  ];
}
