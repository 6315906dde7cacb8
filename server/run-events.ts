import type { Span, SpanStart } from "../domain/trace.js";
import type { SpanListener } from "./trace.js";

/** What a streaming client is told as an analysis runs (docs/debugging.md: SSE event format). */
export type RunEvent =
  | { type: "run_started"; request_id: string; artifacts: string[] }
  | ({ type: "node_started" } & SpanStart)
  | ({ type: "node_finished" } & Span)
  | { type: "progress"; node: string | null; message: string };

export type RunEventSink = (event: RunEvent) => void;

/** A span listener that forwards node starts, progress and ends to a sink. */
export function spanEvents(sink: RunEventSink): SpanListener {
  return {
    started: (start) => sink({ type: "node_started", ...start }),
    progress: (chunk) => sink(progressEvent(chunk)),
    finished: (span) => sink({ type: "node_finished", ...span }),
  };
}

/** A progress event from whatever a node wrote to `config.writer` (analyzers write `{node, progress}`). */
export function progressEvent(chunk: unknown): RunEvent {
  const c = (chunk ?? {}) as { node?: unknown; progress?: unknown; message?: unknown };
  const text = typeof c.progress === "string" ? c.progress : typeof c.message === "string" ? c.message : JSON.stringify(chunk);
  return { type: "progress", node: typeof c.node === "string" ? c.node : null, message: text };
}
