// Following a game's event stream. A spectator's EventSource reconnects by itself and resumes
// with `Last-Event-ID`. A seat's stream is opened with a single-use ticket (its token never goes
// into a URL), so after a drop it is reopened with a new ticket and `after=<last version>`.

import { api } from "./api.js";
import { eventTypes } from "./catalog.js";
import { ReopeningStream } from "./reopening.js";

export class LiveStream extends ReopeningStream {
  // onEvent(event) for each event in order; onGap() when events may have been missed;
  // onState(text) with "live", "reconnecting", "ended".
  constructor(gameId, token, { after, onEvent, onGap, onState }) {
    super();
    this.gameId = gameId;
    this.token = token;
    this.last = after;
    this.handlers = { onEvent, onGap, onState };
  }

  async open() {
    if (this.closed) return;
    let url = `/games/${this.gameId}/events/stream?after=${this.last}`;
    try {
      if (this.token) {
        const { data } = await api.streamTicket(this.gameId, this.token);
        url += `&ticket=${encodeURIComponent(data.ticket)}`;
      }
    } catch (error) {
      if (error.status === 401 || error.code === "game-finished") return this.end();
      return this.retry();
    }
    if (this.closed) return;
    this.listen(url, eventTypes(), {
      onOpen: () => this.handlers.onState("live"),
      onError: (source) => {
        // A spectator's source retries on its own, with Last-Event-ID; a ticket is spent.
        if (this.token || source.readyState === EventSource.CLOSED) {
          source.close();
          this.retry();
        } else {
          this.handlers.onState("reconnecting");
        }
      },
    });
  }

  receive(message) {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (event.version <= this.last) return; // already seen (a resume overlaps nothing, but be safe)
    if (event.version !== this.last + 1) this.handlers.onGap();
    this.last = event.version;
    this.handlers.onEvent(event);
    if (event.type === "GameEnded") this.end();
  }

  retry() {
    if (!this.closed) this.handlers.onState("reconnecting");
    super.retry();
  }

  end() {
    this.close();
    this.handlers.onState("ended");
  }
}
