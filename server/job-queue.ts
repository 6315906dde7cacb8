import { BullmqJobQueue } from "../jobs/bullmq-queue.js";
import { MemoryJobQueue } from "../jobs/memory-queue.js";
import type { JobQueue } from "../jobs/queue.js";
import type { Admission } from "./admission.js";
import { createCompareSteps } from "./job-compare.js";
import { createJobRunner, createJobStep } from "./job-runner.js";
import type { ServiceRuntime } from "./runtime.js";

/**
 * The job queue, chosen once at start-up: BullMQ on SERVICE_REDIS_URL (shared by every replica, a comparison's
 * runs spread over them), else this process's own bounded queue. Jobs share the analysis slots of
 * SERVICE_MAX_CONCURRENT_ANALYSES with requests: a whole job, or one run of a spread comparison, takes one.
 */
export function createJobQueue(runtime: ServiceRuntime, admission: Admission): JobQueue {
  const s = runtime.settings;
  const step = createJobStep(runtime, admission);
  const runner = createJobRunner(runtime, step);
  const limits = { workers: s.SERVICE_JOB_WORKERS, maxQueued: s.SERVICE_MAX_QUEUED_JOBS, retentionMs: s.SERVICE_JOB_RETENTION_MS };
  if (!s.SERVICE_REDIS_URL) return new MemoryJobQueue(runner, limits);
  // As many runs at once as the process's job workers would analyse running whole comparisons (runComparison's runWorkers each).
  const runWorkers = s.SERVICE_JOB_WORKERS * Math.max(2, s.SERVICE_ANALYZER_WORKERS);
  return new BullmqJobQueue(
    runner,
    { ...limits, runWorkers, url: s.SERVICE_REDIS_URL, logger: runtime.logger, attempts: s.SERVICE_JOB_ATTEMPTS, lockMs: s.SERVICE_JOB_LOCK_MS },
    createCompareSteps(runtime, step),
  );
}
