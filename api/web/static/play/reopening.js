// What both live streams share (a game's in live.js, the player's notices in notices.js): an
// EventSource whose URL is made anew for each connection (a single-use ticket in it), reopened
// after a drop with a backoff that doubles up to 5 s, until it is closed.

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;

export class ReopeningStream {
  constructor() {
    this.backoff = FIRST_BACKOFF_MS;
    this.closed = false;
    this.source = null;
    this.timer = null;
  }

  // Opens `url`, passing each message of these `types` (and of any type not known yet) to
  // receive(message); onOpen() once connected, onError(source) when it drops.
  listen(url, types, { onOpen = () => {}, onError }) {
    const source = new EventSource(url);
    this.source = source;
    source.onopen = () => {
      this.backoff = FIRST_BACKOFF_MS;
      onOpen();
    };
    const receive = (message) => this.receive(message);
    for (const type of types) source.addEventListener(type, receive);
    source.onmessage = receive;
    source.onerror = () => {
      if (!this.closed) onError(source);
    };
  }

  // Calls open() again after the backoff, which then grows.
  retry() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.source) this.source.close();
  }
}
