import { z } from "zod";

/** What a job is doing: `queued` until a worker takes it, `running`, then one of the final three. */
export const JOB_STATES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * How far a running job is: an analysis counts its graph nodes finished, a comparison its runs analysed (of
 * how many, once known); both say the last thing that happened.
 */
export const JobProgressSchema = z.object({
  nodes_finished: z.number().int().optional(),
  runs_done: z.number().int().optional(),
  runs_total: z.number().int().nullable().optional(),
  message: z.string().nullable(),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** A failed job's error: the status and body the synchronous endpoint would have answered. */
export const JobErrorSchema = z.object({ status: z.number().int(), code: z.string(), detail: z.string() });
export type JobError = z.infer<typeof JobErrorSchema>;

/** GET /v1/jobs/:id. `result` is the synchronous endpoint's response body, once `done`. */
export const JobViewSchema = z.object({
  id: z.string(),
  state: z.enum(JOB_STATES),
  progress: JobProgressSchema.nullable(),
  result: z.unknown().describe("Once done: the body POST /v1/analyse (or /v1/compare) would have answered; null before."),
  error: JobErrorSchema.nullable(),
});
export type JobView = z.infer<typeof JobViewSchema>;

/** What a worker is given: the request body as posted and the id its logs and response carry. */
export interface JobRequest {
  id: string;
  body: unknown;
}

/** How a run of a job ended; stored as the job's outcome (a failure is a value, never retried). */
export type JobOutcome = { state: "done"; result: unknown } | { state: "failed"; error: JobError } | { state: "cancelled" };

export interface JobContext {
  /** Aborts when the job is cancelled (DELETE) or its process stops. */
  signal: AbortSignal;
  progress(progress: JobProgress): void;
}

/** Runs one job to its outcome; never throws (server/job-runner.ts). */
export type JobRunner = (request: JobRequest, context: JobContext) => Promise<JobOutcome>;

export const FINAL_STATES: ReadonlySet<JobState> = new Set(["done", "failed", "cancelled"]);
