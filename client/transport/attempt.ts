import { takeSseFrames } from "./sse.js";

/** How one attempt ended. */
export type AttemptOutcome =
  /** The service answered; for a stream, the `result` event's data as the body. */
  | { kind: "answer"; status: number; retryAfter: string | null; body: string }
  /** The connection failed (refused, reset, DNS) or a stream ended early. */
  | { kind: "network"; reason: string }
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

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

async function readStream(res: Response, onEvent: (e: RunEvent) => void): Promise<AttemptOutcome> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { kind: "network", reason: "the event stream ended before the result" };
    const { frames, rest } = takeSseFrames(buffer + value);
    buffer = rest;
    for (const f of frames) {
      if (f.event === "result") {
        await reader.cancel();
        return { kind: "answer", status: 200, retryAfter: null, body: f.data };
      }
      const data = JSON.parse(f.data) as Record<string, unknown>;
      if (f.event === "error") {
        await reader.cancel();
        return { kind: "stream_error", code: String(data.code ?? "ERROR"), detail: String(data.detail ?? f.data), body: f.data };
      }
      onEvent({ event: f.event, data });
    }
  }
}

/** One POST: its answer, or why there was none. Never throws for network trouble. */
export async function attemptOnce(req: AttemptRequest): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), req.timeoutMs);
  try {
    const res = await fetch(req.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: req.onEvent ? "text/event-stream" : "application/json, text/html" },
      body: req.body,
      signal: controller.signal,
    });
    if (req.onEvent && res.ok && (res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      return await readStream(res, req.onEvent);
    }
    return { kind: "answer", status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
  } catch (err) {
    return controller.signal.aborted ? { kind: "timeout" } : { kind: "network", reason: networkReason(err) };
  } finally {
    clearTimeout(timer);
  }
}
