// Following the player's notices (`/me/stream`): "your turn", "game started", "game ended"...
// for all its tables, never a card. EventSource cannot send the key in a header, and a key in
// a URL would reach logs and histories, so each connection is opened with a single-use ticket
// (`POST /me/stream-ticket`). After a drop the browser would retry with the spent ticket:
// instead the stream is reopened with a new ticket, resuming after the last notice it got
// (`after=<its id>`, what Last-Event-ID would say), backing off up to 5 s. The last id is kept
// per player (`cardroom.notices.<player id>`), so the next visit resumes there too: notices
// older than the tables just read are recognised by their game's version, not by their time.

import { api } from "./api.js";
import { ReopeningStream } from "./reopening.js";

export const NOTICE_KINDS = [
  "your_turn", "game_started", "game_ended", "invited", "timed_out", "seat_lost",
  "match_found", "endpoint_disabled",
];
const LAST = "cardroom.notices.";

function lastKept(playerId) {
  try {
    return Number(localStorage.getItem(LAST + playerId)) || 0;
  } catch {
    return 0;
  }
}

export class NoticeStream extends ReopeningStream {
  // onNotice(notice) for each notice once, in order; onKeyRefused() when the key no longer
  // works (replaced on another device).
  constructor({ id, key }, { onNotice, onKeyRefused = () => {} }) {
    super();
    this.playerId = id;
    this.key = key;
    this.last = lastKept(id); // the last notice's id received here
    this.handlers = { onNotice, onKeyRefused };
  }

  async open() {
    if (this.closed) return;
    let ticket;
    try {
      ticket = (await api.noticeTicket(this.key)).data.ticket;
    } catch (error) {
      if (error.status === 401) return this.refused();
      return this.retry();
    }
    if (this.closed) return;
    const url = `/me/stream?ticket=${encodeURIComponent(ticket)}&after=${this.last}`;
    this.listen(url, NOTICE_KINDS, {
      onError: (source) => {
        source.close(); // its ticket is spent: a new one, resuming after the last notice
        this.retry();
      },
    });
  }

  receive(message) {
    let notice;
    try {
      notice = JSON.parse(message.data);
    } catch {
      return;
    }
    if (notice.id <= this.last) return; // already received (a resume overlaps nothing; be safe)
    this.last = notice.id;
    try {
      localStorage.setItem(LAST + this.playerId, String(notice.id));
    } catch { /* not kept: the next visit reads a few notices again */ }
    this.handlers.onNotice(notice);
  }

  refused() {
    this.close();
    this.handlers.onKeyRefused();
  }
}
