import type { JobRequest, JobState, JobView } from "./job.js";

/**
 * Jobs by state for /metrics: `queued` and `running` now, the final states counted since the queue began (this
 * process in memory; every replica since the Redis was empty with BullMQ), as this process last saw them.
 */
export type JobCounts = Record<JobState, number>;

/** The per-run queue's depth, for /metrics: a comparison job's runs once they are spread over the replicas. */
export interface RunCounts {
  queued: number;
  running: number;
}

/**
 * Where jobs wait, run and are kept until they expire: in this process (memory-queue.ts) or in Redis with
 * BullMQ, shared by every replica (bullmq-queue.ts), chosen once at start-up (server/job-queue.ts).
 */
export interface JobQueue {
  /** Queues a job under `request.id`; throws QueueFullError when SERVICE_MAX_QUEUED_JOBS are waiting. */
  submit(request: JobRequest): Promise<void>;
  /** The job, or null when unknown or expired. */
  get(id: string): Promise<JobView | null>;
  /** Cancels a queued or running job; the job as it is now, or null when unknown or expired. */
  cancel(id: string): Promise<JobView | null>;
  counts(): JobCounts;
  /** Runs of comparison jobs this process analysed one at a time, each as a job of its own (with BullMQ; 0 in memory, where a comparison runs whole). */
  runsAnalysedHere(): number;
  /** Runs of comparison jobs waiting and being analysed, all replicas together (with BullMQ; none in memory), as this process last saw them. */
  runCounts(): RunCounts;
  /** Stops taking jobs; a running job is cancelled in memory, or left to another replica with BullMQ. */
  close(): Promise<void>;
}

/** The waiting line is at its bound. */
export class QueueFullError extends Error {
  override name = "QueueFullError";
  constructor(readonly waiting: number) {
    super(`${waiting} jobs are waiting, the limit (SERVICE_MAX_QUEUED_JOBS); retry later`);
  }
}

/** The queue's store cannot be reached (Redis down): nothing can be queued or read. */
export class QueueUnavailableError extends Error {
  override name = "QueueUnavailableError";
}

export function emptyCounts(): JobCounts {
  return { queued: 0, running: 0, done: 0, failed: 0, cancelled: 0 };
}
