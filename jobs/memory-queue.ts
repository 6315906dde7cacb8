import { LRUCache } from "lru-cache";
import type { JobOutcome, JobProgress, JobRequest, JobRunner, JobView } from "./job.js";
import { type JobCounts, type JobQueue, QueueFullError, type RunCounts } from "./queue.js";

export interface MemoryQueueLimits {
  /** Jobs run at once (SERVICE_JOB_WORKERS). */
  workers: number;
  /** Jobs waiting at most (SERVICE_MAX_QUEUED_JOBS). */
  maxQueued: number;
  /** How long a finished job is kept (SERVICE_JOB_RETENTION_MS). */
  retentionMs: number;
  /** Finished jobs kept at most, whatever their age: memory stays bounded under any submission rate. */
  maxFinished?: number;
  /** Milliseconds clock for the retention; tests inject one. */
  clock?: { now(): number };
}

interface LiveJob {
  request: JobRequest;
  view: JobView;
  controller: AbortController;
}

/**
 * Jobs in this process, for a service without Redis: a bounded waiting line, SERVICE_JOB_WORKERS running at
 * once, finished jobs kept for the retention time. Everything is lost when the process stops (docs/deployment.md).
 */
export class MemoryJobQueue implements JobQueue {
  private readonly live = new Map<string, LiveJob>();
  private readonly waiting: string[] = [];
  private readonly finished: LRUCache<string, JobView>;
  private readonly ended = { done: 0, failed: 0, cancelled: 0 };
  private running = 0;
  private closed = false;

  constructor(
    private readonly runner: JobRunner,
    private readonly limits: MemoryQueueLimits,
  ) {
    this.finished = new LRUCache<string, JobView>({
      max: limits.maxFinished ?? 10_000,
      ttl: limits.retentionMs,
      // Check the clock on every read, so an injected clock is exact.
      ttlResolution: 0,
      ...(limits.clock ? { perf: limits.clock } : {}),
    });
  }

  async submit(request: JobRequest): Promise<void> {
    if (this.waiting.length >= this.limits.maxQueued) throw new QueueFullError(this.waiting.length);
    this.live.set(request.id, { request, view: { id: request.id, state: "queued", progress: null, result: null, error: null }, controller: new AbortController() });
    this.waiting.push(request.id);
    this.pump();
  }

  async get(id: string): Promise<JobView | null> {
    const view = this.live.get(id)?.view ?? this.finished.get(id);
    return view ? structuredClone(view) : null;
  }

  async cancel(id: string): Promise<JobView | null> {
    const job = this.live.get(id);
    if (!job) return this.get(id);
    const at = this.waiting.indexOf(id);
    if (at >= 0) {
      this.waiting.splice(at, 1);
      this.finish(job, { state: "cancelled" });
    } else {
      // The run ends through its signal; its outcome is recorded as cancelled whatever it returns.
      job.controller.abort(new Error("the job was cancelled"));
      this.finish(job, { state: "cancelled" });
    }
    return this.get(id);
  }

  counts(): JobCounts {
    return { ...this.ended, queued: this.waiting.length, running: this.running };
  }

  runsAnalysedHere(): number {
    return 0;
  }

  runCounts(): RunCounts {
    return { queued: 0, running: 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.live.values()) job.controller.abort(new Error("the service is stopping"));
  }

  private pump(): void {
    while (!this.closed && this.running < this.limits.workers && this.waiting.length > 0) this.start(this.live.get(this.waiting.shift()!)!);
  }

  private start(job: LiveJob): void {
    this.running++;
    job.view.state = "running";
    const progress = (p: JobProgress) => {
      if (this.live.get(job.request.id) === job) job.view.progress = p;
    };
    void this.runner(job.request, { signal: job.controller.signal, progress })
      .then((outcome) => this.finish(job, outcome))
      .finally(() => {
        this.running--;
        this.pump();
      });
  }

  /** Moves a job to the finished ones, once: a cancelled job's run ending later changes nothing. */
  private finish(job: LiveJob, outcome: JobOutcome): void {
    if (this.live.get(job.request.id) !== job) return;
    this.live.delete(job.request.id);
    const view: JobView = {
      ...job.view,
      state: outcome.state,
      result: outcome.state === "done" ? outcome.result : null,
      error: outcome.state === "failed" ? outcome.error : null,
    };
    this.ended[outcome.state]++;
    this.finished.set(view.id, view);
  }
}
