import type { Logger } from "../config/logger.js";
import { decodeCompareRequest } from "../artifacts/compare-request.js";
import { buildExperimentGraph } from "../graph/build-experiment.js";
import { Deadline } from "../graph/deadline.js";
import type { JobContext, JobOutcome, JobRunner } from "../jobs/job.js";
import type { Admission } from "./admission.js";
import { analyzeRequest, checkAnalysisRequest } from "./analyze-request.js";
import { compareRequest } from "./compare-request.js";
import { RunProgressCounter } from "./run-progress.js";
import { toHttpError } from "./errors.js";
import { jsonWriter } from "./json-writer.js";
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

/** What a job's work is given: its id, logger and clock, as a request's analysis is. */
export interface JobWorkOptions {
  requestId: string;
  logger: Logger;
  deadline: Deadline;
}

/** Runs a job's work to its outcome: see createJobStep. */
export type JobStep = (id: string, context: JobContext, work: (options: JobWorkOptions) => Promise<unknown>) => Promise<JobOutcome>;

/**
 * Runs a job's work (a whole job, or one step of a comparison spread over workers) as POST /v1/analyse or
 * /v1/compare runs a request: one analysis slot, the same request time-out, the result written as the endpoint
 * writes its answer. Whatever goes wrong becomes the outcome's error, with the status and body the synchronous
 * endpoint would have answered, so a step never throws (a failure is final, never retried).
 */
export function createJobStep(runtime: ServiceRuntime, admission: Admission): JobStep {
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  const writeJson = jsonWriter(runtime.redactor);
  return async (id, { signal, progress }, work): Promise<JobOutcome> => {
    const logger: Logger = runtime.logger.child({ job_id: id });
    let release: (() => void) | null = null;
    const deadline = new Deadline();
    const cancel = () => deadline.abort(signal.reason);
    signal.addEventListener("abort", cancel, { once: true });
    try {
      progress({ message: "waiting for an analysis slot" });
      release = await slot(admission, signal);
      deadline.begin(timeoutMs, REQUEST_BUDGET);
      const response = await untilDeadline<unknown>(work({ requestId: id, logger, deadline }), deadline, timeoutMs);
      // Stored as JSON (in Redis with BullMQ): written as the synchronous endpoint writes its answer.
      return { state: "done", result: JSON.parse(writeJson(response)) as unknown };
    } catch (err) {
      if (signal.aborted) return { state: "cancelled" };
      const { status, body } = toHttpError(err, id);
      if (status >= 500) logger.error("job failed", { status, code: body.code, err });
      return { state: "failed", error: { status, code: body.code, detail: body.detail } };
    } finally {
      signal.removeEventListener("abort", cancel);
      deadline.dispose();
      release?.();
    }
  };
}

/** Runs a whole job in one step, as POST /v1/analyse or /v1/compare would (a comparison's runs all in this process). */
export function createJobRunner(runtime: ServiceRuntime, step: JobStep): JobRunner {
  const experimentGraph = buildExperimentGraph();
  return (request, context) =>
    step(request.id, context, (options) => {
      const { progress } = context;
      let finished = 0;
      return isCompareBody(request.body)
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
    });
}
