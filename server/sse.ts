import type { Request, Response } from "express";
import { appJsonWriter } from "./json-writer.js";

/** Whether the client asked for server-sent events (`Accept: text/event-stream`) rather than JSON. */
export function wantsEventStream(req: Request): boolean {
  return req.accepts(["application/json", "text/event-stream"]) === "text/event-stream";
}

/** Server-sent events on one response. Opens lazily, so errors before the first event are ordinary JSON errors. */
export interface EventStream {
  send(event: string, data: unknown): void;
  /** Sends the last event and ends the response. */
  end(event: string, data: unknown): void;
}

/** A comment line every so often keeps proxies from closing a stream that is quiet during a long node. */
const HEARTBEAT_MS = 15_000;

export function createEventStream(res: Response, heartbeatMs = HEARTBEAT_MS): EventStream {
  // The app's JSON writer, so the `result` event is byte for byte what res.json would send.
  const writeJson = appJsonWriter(res);
  let id = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  const writable = () => !res.writableEnded && !res.destroyed;
  const open = () => {
    if (res.headersSent) return;
    res.status(200).set({
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    res.flushHeaders();
    heartbeat = setInterval(() => writable() && res.write(": keep-alive\n\n"), heartbeatMs).unref();
    res.on("close", () => clearInterval(heartbeat));
  };
  const frame = (event: string, data: unknown) => `id: ${++id}\nevent: ${event}\ndata: ${writeJson(data)}\n\n`;
  return {
    send(event, data) {
      open();
      if (writable()) res.write(frame(event, data));
    },
    end(event, data) {
      open();
      clearInterval(heartbeat);
      if (writable()) res.end(frame(event, data));
    },
  };
}
