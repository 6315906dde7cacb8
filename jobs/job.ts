/** What a job is doing: `queued` until a worker takes it, `running`, then one of the final three. */
export const JOB_STATES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * How far a running job is: an analysis counts its graph nodes finished, a comparison its runs analysed (of
 * how many, once known); both say the last thing that happened.
 */
export interface JobProgress {
  nodes_finished?: number;
  runs_done?: number;
  runs_total?: number | null;
  message: string | null;
}

/** A failed job's error: the status and body the synchronous endpoint would have answered. */
export interface JobError {
  status: number;
  code: string;
  detail: string;
}

/** GET /v1/jobs/:id. `result` is the synchronous endpoint's response body, once `done`. */
export interface JobView {
  id: string;
  state: JobState;
  progress: JobProgress | null;
  result: unknown;
  error: JobError | null;
}

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
