import type { Logger } from "../config/logger.js";
import { decodeCompareRequest } from "../artifacts/compare-request.js";
import { buildExperimentGraph } from "../graph/build-experiment.js";
import { Deadline } from "../graph/deadline.js";
import type { JobOutcome, JobRunner } from "../jobs/job.js";
import type { Admission } from "./admission.js";
import { analyzeRequest, checkAnalysisRequest } from "./analyze-request.js";
import { compareRequest } from "./compare-request.js";
import { RunProgressCounter } from "./run-progress.js";
import { toHttpError } from "./errors.js";
import { jsonReplacer } from "./json-replacer.js";
import { REQUEST_BUDGET } from "./request-deadline.js";
import { untilDeadline } from "./routes/analyse.js";
import type { ServiceRuntime } from "./runtime.js";

/** How often a job waiting for an analysis slot tries again. */
const SLOT_POLL_MS = 200;

/** A body with `runs` is a comparison (POST /v1/compare's body); any other, an analysis (POST /v1/analyse's). */
export function isCompareBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && !Array.isArray(body) && "runs" in body;
}

/** Refuses a body its endpoint would refuse (400, or 413 for too many runs) before it is queued. */
export async function checkJobBody(runtime: ServiceRuntime, body: unknown, id: string): Promise<void> {
  if (isCompareBody(body)) decodeCompareRequest(body, id, runtime.settings.SERVICE_MAX_COMPARE_RUNS);
  else await checkAnalysisRequest(runtime, body, id);
}

/** Waits for one of the SERVICE_MAX_CONCURRENT_ANALYSES slots, which jobs share with synchronous requests. */
async function slot(admission: Admission, signal: AbortSignal): Promise<() => void> {
  for (;;) {
    const release = admission.take();
    if (release) return release;
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
  }
}

/**
 * Runs a job as POST /v1/analyse or /v1/compare runs a request: one analysis slot, the same request time-out,
 * the same response. Whatever goes wrong becomes the job's error, with the status and body the synchronous endpoint
 * would have answered, so the runner never throws (a failure is final, never retried).
 */
export function createJobRunner(runtime: ServiceRuntime, admission: Admission): JobRunner {
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  const replacer = jsonReplacer(runtime.redactor);
  const experimentGraph = buildExperimentGraph();
  return async (request, { signal, progress }): Promise<JobOutcome> => {
    const logger: Logger = runtime.logger.child({ job_id: request.id });
    let release: (() => void) | null = null;
    const deadline = new Deadline();
    const cancel = () => deadline.abort(signal.reason);
    signal.addEventListener("abort", cancel, { once: true });
    try {
      progress({ message: "waiting for an analysis slot" });
      release = await slot(admission, signal);
      deadline.begin(timeoutMs, REQUEST_BUDGET);
      let finished = 0;
      const options = { requestId: request.id, logger, deadline };
      const work = isCompareBody(request.body)
        ? compareRequest(runtime, experimentGraph, request.body, {
            ...options,
            callbacks: [new RunProgressCounter((runs) => progress({ ...runs, message: `${runs.runs_done} of ${runs.runs_total ?? "?"} runs analysed` }))],
          })
        : analyzeRequest(runtime, request.body, {
            ...options,
            onEvent: (event) => {
              if (event.type === "node_finished") progress({ nodes_finished: ++finished, message: `${event.node} finished` });
              else if (event.type === "progress") progress({ nodes_finished: finished, message: event.message });
            },
          });
      const response = await untilDeadline<unknown>(work, deadline, timeoutMs);
      // Stored as JSON (in Redis with BullMQ): written as the synchronous endpoint writes its answer.
      return { state: "done", result: JSON.parse(JSON.stringify(response, replacer)) as unknown };
    } catch (err) {
      if (signal.aborted) return { state: "cancelled" };
      const { status, body } = toHttpError(err, request.id);
      if (status >= 500) logger.error("job failed", { status, code: body.code, err });
      return { state: "failed", error: { status, code: body.code, detail: body.detail } };
    } finally {
      signal.removeEventListener("abort", cancel);
      deadline.dispose();
      release?.();
    }
  };
}
