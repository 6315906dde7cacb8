import { ClientError } from "../errors.js";
import { systemClock } from "./retry.js";
import { type SendOptions, sendWithRetry } from "./send.js";
import { serviceError } from "./service-error.js";
import { takeSseFrames } from "./sse.js";

/** A job's progress as the service reports it (docs/deployment.md): runs of a comparison, or nodes of an analysis. */
export interface JobProgress {
  runs_done?: number;
  runs_total?: number | null;
  nodes_finished?: number;
  message: string | null;
}

export interface JobOptions extends Omit<SendOptions, "url" | "onEvent"> {
  server: string;
  onSubmitted?: (id: string) => void;
  onProgress?: (progress: JobProgress) => void;
}

/** Times the event stream may drop (a replica restarting behind the load balancer) before the client gives up. */
const RECONNECTS = 5;

/** Reads one events stream of a job: its final answer body, or null when the stream ended before the job did. */
async function followOnce(url: string, options: JobOptions): Promise<string | null> {
  const res = await fetch(url, { headers: { accept: "text/event-stream" } });
  if (!res.ok) throw serviceError(res.status, await res.text());
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      const { frames, rest } = takeSseFrames(buffer + value);
      buffer = rest;
      for (const f of frames) {
        if (f.event === "result") return f.data;
        const data = JSON.parse(f.data) as Record<string, unknown>;
        if (f.event === "state" && data.progress) options.onProgress?.(data.progress as JobProgress);
        else if (f.event === "failed") throw serviceError(Number(data.status ?? 500), f.data);
        else if (f.event === "cancelled") throw new ClientError("SERVICE_ERROR", `${url}: the job was cancelled on the service (DELETE /v1/jobs/:id) before it finished`);
        else if (f.event === "error") throw serviceError(404, f.data);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Sends a body as a job (POST /v1/jobs, retried like any request) and follows its events to the end: the answer
 * body is what the synchronous endpoint would have returned. A dropped stream is picked up again (the job runs
 * on, on any replica); a failed job throws its error as the synchronous endpoint would have answered it.
 */
export async function runAsJob(options: JobOptions): Promise<string> {
  const submitted = JSON.parse(await sendWithRetry({ ...options, url: `${options.server}/v1/jobs` })) as { id: string };
  options.onSubmitted?.(submitted.id);
  const url = `${options.server}/v1/jobs/${submitted.id}/events`;
  for (let attempt = 0; attempt <= RECONNECTS; attempt++) {
    const answer = await followOnce(url, options).catch((err: unknown) => {
      if (err instanceof ClientError) throw err;
      return null;
    });
    if (answer !== null) return answer;
    await (options.clock ?? systemClock).sleep(1000);
  }
  throw new ClientError("UNREACHABLE", `${url}: the job's event stream dropped ${RECONNECTS + 1} times; the job may still finish: GET /v1/jobs/${submitted.id}`);
}
