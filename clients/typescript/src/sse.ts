// Server-Sent Events read from a fetch body (Node 20+ and browsers alike): the fields our
// streams use (`id`, `event`, `data`, comments).

export interface Message {
  id: string | undefined;
  event: string;
  data: string;
}

export async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<Message> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let id: string | undefined;
  let event = "message";
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline).replace(/\r$/, "");
        buffered = buffered.slice(newline + 1);
        if (line === "") {
          if (data.length > 0) yield { id, event, data: data.join("\n") };
          [id, event, data] = [undefined, "message", []];
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const field = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (name === "id") id = field;
          else if (name === "event") event = field;
          else if (name === "data") data.push(field);
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}
