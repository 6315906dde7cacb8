import { randomUUID } from "node:crypto";
import { Router, type Response } from "express";
import { FINAL_STATES, type JobView } from "../../jobs/job.js";
import { type JobQueue, QueueFullError, QueueUnavailableError } from "../../jobs/queue.js";
import type { Admission } from "../admission.js";
import { ServiceError } from "../errors.js";
import { jsonBodyIntake } from "../intake.js";
import { checkJobBody } from "../job-runner.js";
import { parseJsonBody } from "../json-body.js";
import type { ServiceRuntime } from "../runtime.js";
import { createEventStream } from "../sse.js";

/** How often GET /v1/jobs/:id/events looks at the job: the queue may be in another replica's hands. */
const EVENTS_POLL_MS = 250;
/** Retry-After of a full or unreachable queue: jobs take a while, so clients come back later than for a slot. */
const QUEUE_RETRY_AFTER = "30";
const JOB_ID = /^[A-Za-z0-9-]{1,64}$/;

function notFound(id: string, retentionMs: number): ServiceError {
  return new ServiceError("NOT_FOUND", 404, `no job ${id}: it was never submitted, or it finished more than ${retentionMs} ms ago (SERVICE_JOB_RETENTION_MS) and expired`);
}

function queueError(err: unknown): unknown {
  if (err instanceof QueueFullError) return new ServiceError("OVERLOADED", 503, err.message, { "Retry-After": QUEUE_RETRY_AFTER });
  if (err instanceof QueueUnavailableError) return new ServiceError("OVERLOADED", 503, err.message, { "Retry-After": "5" });
  return err;
}

/** The job without its result, as progress events carry it. */
const status = ({ result: _result, ...rest }: JobView) => rest;

/**
 * POST /v1/jobs (the body of /v1/analyse, or of /v1/compare when it has `runs`; answered 202 with the job's id), GET /v1/jobs/:id, its server-sent
 * events, and DELETE (cancel). The queue behind may be this process's or BullMQ's; the routes do not know.
 */
export function createJobsRouter(runtime: ServiceRuntime, admission: Admission, jobs: JobQueue): Router {
  const router = Router();
  const retentionMs = runtime.settings.SERVICE_JOB_RETENTION_MS;
  const find = async (id: string): Promise<JobView> => {
    const job = JOB_ID.test(id) ? await jobs.get(id).catch((err: unknown) => Promise.reject(queueError(err))) : null;
    if (!job) throw notFound(id, retentionMs);
    return job;
  };

  // No analysis slot at submission: the job takes one when a worker runs it.
  router.post("/v1/jobs", admission.arrive, ...jsonBodyIntake(runtime.settings), async (req, res, next) => {
    try {
      const id = randomUUID();
      const body = await parseJsonBody(req.body as Buffer);
      await checkJobBody(runtime, body, id);
      await jobs.submit({ id, body }).catch((err: unknown) => Promise.reject(queueError(err)));
      (res.locals.logger as typeof runtime.logger).info("job queued", { job_id: id });
      res.status(202).location(`/v1/jobs/${id}`).json({ id });
    } catch (err) {
      next(err);
    }
  });

  router.get("/v1/jobs/:id", async (req, res, next) => {
    try {
      res.json(await find(req.params.id));
    } catch (err) {
      next(err);
    }
  });

  router.delete("/v1/jobs/:id", async (req, res, next) => {
    try {
      await find(req.params.id);
      const job = await jobs.cancel(req.params.id).catch((err: unknown) => Promise.reject(queueError(err)));
      if (!job) throw notFound(req.params.id, retentionMs);
      res.json(job);
    } catch (err) {
      next(err);
    }
  });

  router.get("/v1/jobs/:id/events", async (req, res, next) => {
    try {
      const first = await find(req.params.id);
      await followJob(res, first, () => jobs.get(first.id));
    } catch (err) {
      next(err);
    }
  });
  return router;
}

/**
 * Streams a job as server-sent events until it ends: `state` whenever its state or progress changes, then one
 * final event, `result` (the synchronous endpoint's response body), `failed` (the error) or `cancelled`.
 */
async function followJob(res: Response, first: JobView, read: () => Promise<JobView | null>): Promise<void> {
  const stream = createEventStream(res);
  let gone = false;
  res.on("close", () => (gone = true));
  let last = "";
  let job: JobView | null = first;
  while (!gone) {
    if (!job) return stream.end("error", { code: "NOT_FOUND", detail: `job ${first.id} expired` });
    const now = JSON.stringify(status(job));
    if (now !== last) {
      last = now;
      stream.send("state", status(job));
    }
    if (FINAL_STATES.has(job.state)) {
      if (job.state === "done") return stream.end("result", job.result);
      if (job.state === "failed") return stream.end("failed", job.error);
      return stream.end("cancelled", { id: job.id });
    }
    await new Promise((resolve) => setTimeout(resolve, EVENTS_POLL_MS));
    job = await read().catch(() => job);
  }
}
