// The player this browser plays as: a name and a key (a bearer secret, like a seat token, that
// acts for the player at every one of its tables), kept in localStorage as `cardroom.player`.
// It is made on the first visit that names it or takes a seat, moved to another device by
// exporting the key and importing it there, and its key can be replaced (the old one then
// stops working everywhere at once). The key never goes into a URL.

import { api } from "./api.js";

const KEY = "cardroom.player";
const listeners = new Set();

// {id, name, key}, or null while this browser has no player.
export function player() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY));
    return kept && kept.id && kept.key ? kept : null;
  } catch {
    return null;
  }
}

export const onPlayer = (listener) => listeners.add(listener);
export const offPlayer = (listener) => listeners.delete(listener);

function keep(entry) {
  localStorage.setItem(KEY, JSON.stringify({ id: entry.id, name: entry.name, key: entry.key }));
  listeners.forEach((listener) => listener(player()));
  return player();
}

// A new player with this name, kept here.
export async function makePlayer(name) {
  const { data } = await api.newPlayer(name);
  return keep(data);
}

// This browser's player, made with `name` if there is none yet.
export const ensurePlayer = async (name) => player() || makePlayer(name);

// Whose a key from another device is: the server says (a key that is no player's, or no longer
// is, is refused with `unauthorized`). Nothing here changes until `usePlayer`.
export async function whoseKey(key) {
  const { data } = await api.me(key);
  return { id: data.id, name: data.name, key };
}

// This browser plays as that player from now on.
export const usePlayer = (found) => keep(found);

// A new key; the old one is refused from now on, here and on every device that holds it.
export async function replaceKey() {
  const current = player();
  const { data } = await api.newKey(current.key);
  return keep({ ...current, key: data.key });
}

// The credential for a game this browser holds a seat at: the seat's own token, or the
// player's key for a seat the player took (its entry names the player, not a token).
export function credentialFor(entry) {
  if (!entry) return null;
  if (entry.token) return entry.token;
  const me = player();
  return me && entry.player === me.id ? me.key : null;
}

// A name to suggest before the visitor picks one: the name this browser typed before players
// existed, else "Player 4821".
export function suggestedName(word) {
  let typed = null;
  try {
    typed = localStorage.getItem("cardroom.name");
  } catch { /* storage refused */ }
  return typed || `${word} ${1000 + Math.floor(Math.random() * 9000)}`;
}
