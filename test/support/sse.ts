/** One server-sent event as a client sees it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

/** Parses complete SSE frames from a text buffer; returns the events and the unparsed rest. */
export function parseSseFrames(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const frames = buffer.split("\n\n");
  const rest = frames.pop() ?? "";
  for (const frame of frames) {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith(":")) continue;
      const [field, ...value] = line.split(": ");
      const text = value.join(": ");
      if (field === "id") id = text;
      else if (field === "event") event = text;
      else if (field === "data") data.push(text);
    }
    if (data.length > 0) events.push({ id, event, data: JSON.parse(data.join("\n")) });
  }
  return { events, rest };
}

/** Reads a streaming response event by event; `until` stops early (the caller may then abort the request). */
export async function readSse(res: Response, until: (e: SseEvent) => boolean = () => false): Promise<SseEvent[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: SseEvent[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return seen;
    const parsed = parseSseFrames(buffer + value);
    buffer = parsed.rest;
    for (const e of parsed.events) {
      seen.push(e);
      if (until(e)) {
        await reader.cancel();
        return seen;
      }
    }
  }
}

/** POSTs a body asking for server-sent events. */
export function postForEvents(url: string, body: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body, signal });
}
