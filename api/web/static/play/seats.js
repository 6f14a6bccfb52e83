// The seats this browser holds: one localStorage entry per game, so a reload (or a new tab)
// finds its way back to the seat. A token is a bearer secret: it never goes into a URL.

const PREFIX = "cardroom.seat.";

export function seatOf(gameId) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + gameId)) || null;
  } catch {
    return null;
  }
}

export function keepSeat(gameId, entry) {
  const stored = { ...entry, saved_at: Date.now() };
  localStorage.setItem(PREFIX + gameId, JSON.stringify(stored));
}

export function forgetSeat(gameId) {
  localStorage.removeItem(PREFIX + gameId);
}

// This browser's tables, newest first.
export function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key.startsWith(PREFIX)) continue;
    const entry = seatOf(key.slice(PREFIX.length));
    if (entry) seats.push({ game: key.slice(PREFIX.length), ...entry });
  }
  return seats.sort((a, b) => (b.saved_at || 0) - (a.saved_at || 0));
}

export function joinLink(gameId, seat, invite) {
  return `${location.origin}/play#/join/${gameId}/${seat}/${invite}`;
}
