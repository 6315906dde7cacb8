import { BullmqJobQueue } from "../jobs/bullmq-queue.js";
import { MemoryJobQueue } from "../jobs/memory-queue.js";
import type { JobQueue } from "../jobs/queue.js";
import type { Admission } from "./admission.js";
import { createJobRunner } from "./job-runner.js";
import type { ServiceRuntime } from "./runtime.js";

/**
 * The job queue, chosen once at start-up: BullMQ on SERVICE_REDIS_URL (shared by every replica), else this
 * process's own bounded queue. Jobs share the analysis slots of SERVICE_MAX_CONCURRENT_ANALYSES with requests.
 */
export function createJobQueue(runtime: ServiceRuntime, admission: Admission): JobQueue {
  const s = runtime.settings;
  const runner = createJobRunner(runtime, admission);
  const limits = { workers: s.SERVICE_JOB_WORKERS, maxQueued: s.SERVICE_MAX_QUEUED_JOBS, retentionMs: s.SERVICE_JOB_RETENTION_MS };
  if (!s.SERVICE_REDIS_URL) return new MemoryJobQueue(runner, limits);
  return new BullmqJobQueue(runner, { ...limits, url: s.SERVICE_REDIS_URL, logger: runtime.logger, attempts: s.SERVICE_JOB_ATTEMPTS, lockMs: s.SERVICE_JOB_LOCK_MS });
}
