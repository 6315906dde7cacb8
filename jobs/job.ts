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

/** A comparison's plan: the runs to analyse (each a child job's input) and what the conclusion needs besides their results. */
export interface ComparePlan {
  /** The decoded comparison without its runs (objective, baseline, language), as JSON. */
  head: unknown;
  /** Each run's input for `analyseRun`, as JSON, in the order of the request. */
  runs: unknown[];
}

/**
 * A comparison split in three so a shared queue can spread its runs over every replica's workers
 * (server/job-compare.ts): plan, one analysis per run, then the cross-run conclusion over their results. What
 * passes between the steps is JSON the queue stores without reading it. Each step, like a JobRunner, never throws.
 */
export interface CompareSteps {
  /** A body with `runs` (POST /v1/compare's); others are run whole by the JobRunner. */
  isCompare(body: unknown): boolean;
  /** Decodes the comparison and lists its runs (tracking-server selectors expanded), or the outcome that ends it now. */
  plan(request: JobRequest, context: JobContext): Promise<ComparePlan | JobOutcome>;
  /** One run's analysis: `done` with what the conclusion keeps of it (compact: no series, no evidence). */
  analyseRun(id: string, input: unknown, context: JobContext): Promise<JobOutcome>;
  /** The cross-run step over every run's result, in the order planned: `done` with POST /v1/compare's response. */
  conclude(request: { id: string; head: unknown }, runs: unknown[], context: JobContext): Promise<JobOutcome>;
}

export function isOutcome(value: ComparePlan | JobOutcome): value is JobOutcome {
  return "state" in value;
}
