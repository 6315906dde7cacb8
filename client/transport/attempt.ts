import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { takeSseFrames } from "./sse.js";

/** How one attempt ended. */
export type AttemptOutcome =
  /** The service answered; for a stream, the `result` event's data as the body. */
  | { kind: "answer"; status: number; retryAfter: string | null; body: string }
  /**
   * The connection failed (refused, reset, DNS) or a stream ended early. `closedOnUpload`: the service closed it
   * while the body was still being sent and no answer could be read, as it does when it refuses a request early.
   */
  | { kind: "network"; reason: string; closedOnUpload: boolean }
  /** No answer within the attempt's time-out. */
  | { kind: "timeout" }
  /** A stream's `error` event: `{detail, code, request_id}`. */
  | { kind: "stream_error"; code: string; detail: string; body: string };

/** A run event from the service's stream (docs/debugging.md): node_started, node_finished, progress. */
export interface RunEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface AttemptRequest {
  url: string;
  body: string;
  /** Ask for server-sent events and report them as they come. */
  onEvent: ((e: RunEvent) => void) | null;
  timeoutMs: number;
}

/** What closing the connection on a body being written looks like on this side. */
const CUT_OFF = new Set(["EPIPE", "ECONNRESET"]);

function errorCode(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ?? e.message ?? String(err);
}

async function readStream(res: IncomingMessage, onEvent: (e: RunEvent) => void): Promise<AttemptOutcome> {
  let buffer = "";
  for await (const chunk of res.setEncoding("utf8")) {
    const { frames, rest } = takeSseFrames(buffer + (chunk as string));
    buffer = rest;
    for (const f of frames) {
      if (f.event === "result") return { kind: "answer", status: 200, retryAfter: null, body: f.data };
      const data = JSON.parse(f.data) as Record<string, unknown>;
      if (f.event === "error") return { kind: "stream_error", code: String(data.code ?? "ERROR"), detail: String(data.detail ?? f.data), body: f.data };
      onEvent({ event: f.event, data });
    }
  }
  return { kind: "network", reason: "the event stream ended before the result", closedOnUpload: false };
}

/** The whole answer; what arrived of it when the connection drops halfway (a refusal's body may be cut short). */
async function readBody(res: IncomingMessage): Promise<string> {
  let text = "";
  try {
    for await (const chunk of res.setEncoding("utf8")) text += chunk as string;
  } catch {
    // The status and headers were read; a body cut off by the close says no more than they do.
  }
  return text;
}

async function readAnswer(res: IncomingMessage, req: AttemptRequest): Promise<AttemptOutcome> {
  const status = res.statusCode ?? 0;
  const retryAfter = typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : null;
  if (req.onEvent && status >= 200 && status < 300 && (res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
    return readStream(res, req.onEvent);
  }
  return { kind: "answer", status, retryAfter, body: await readBody(res) };
}

/**
 * One POST: its answer, or why there was none. Never throws for network trouble. Node's http client rather than
 * fetch, because a service that refuses a request before reading it (429, 503) answers and closes while the body
 * is still being written: fetch then reports only the write's EPIPE, this reads the answer that came first.
 */
export function attemptOnce(req: AttemptRequest): Promise<AttemptOutcome> {
  const url = new URL(req.url);
  const client = url.protocol === "https:" ? https : http;
  const body = Buffer.from(req.body);
  return new Promise<AttemptOutcome>((resolve) => {
    let answered = false;
    let uploaded = false;
    const timer = setTimeout(() => {
      resolve({ kind: "timeout" });
      request.destroy();
    }, req.timeoutMs);
    const finish = (outcome: AttemptOutcome) => {
      clearTimeout(timer);
      resolve(outcome);
      request.destroy();
    };
    const request = client.request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": body.length,
        accept: req.onEvent ? "text/event-stream" : "application/json, text/html",
      },
    });
    request.on("response", (res) => {
      answered = true;
      readAnswer(res, req).then(finish, (err: unknown) => finish({ kind: "network", reason: errorCode(err), closedOnUpload: false }));
    });
    request.on("finish", () => (uploaded = true));
    request.on("error", (err) => {
      if (answered) return;
      const code = errorCode(err);
      finish({ kind: "network", reason: code, closedOnUpload: !uploaded && CUT_OFF.has(code) });
    });
    request.end(body);
  });
}
