// Whether the server can be reached, for the whole page: one banner, and one flag the table reads
// to lock its cards. Any answer from the server (even an error) or an open event stream means
// online; a request that cannot reach it, a stream that stays down, or the browser going offline
// means offline. The banner goes away by itself the moment the server answers again.

import { t } from "./i18n.js";

const GRACE_MS = 1500; // a stream that ends and reopens at once is not worth a banner
const listeners = new Set();
let online = true;
let pending = null;

export const isOnline = () => online;
export const onConnection = (listener) => listeners.add(listener);
export const offConnection = (listener) => listeners.delete(listener);

const PROBE_MS = 2000;
let probe = null;

function set(value) {
  clearTimeout(pending);
  pending = null;
  if (value === online) return;
  online = value;
  show();
  clearInterval(probe);
  if (!online) probe = setInterval(check, PROBE_MS); // whatever page is open, notice the return
  listeners.forEach((listener) => listener(online));
}

async function check() {
  try {
    const response = await fetch("/healthz", { cache: "no-store", credentials: "omit" });
    if (response.ok) set(true);
  } catch { /* still down */ }
}

export const reachable = () => set(true);
export const unreachable = () => set(false);

// A stream that dropped: offline only if it is not back within the grace period.
export function streamDown() {
  if (!online || pending) return;
  pending = setTimeout(() => set(false), GRACE_MS);
}

export function show() {
  const banner = document.getElementById("offline");
  if (!banner) return;
  banner.hidden = online;
  banner.textContent = online ? "" : t("offline.banner");
  document.body.classList.toggle("offline", !online);
}

window.addEventListener("offline", unreachable);
window.addEventListener("online", check);
