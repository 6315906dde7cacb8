import type { Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../config/logger.js";
import { bullmq, ioredis } from "../redis/libraries.js";
import { redisAddress } from "../redis/link.js";
import { CancelFlags } from "./bullmq-cancel.js";
import { CompareFanOut, type CompareJobData, WAITING_STATES } from "./bullmq-fan-out.js";
import { type CompareSteps, type JobContext, type JobOutcome, type JobProgress, JobProgressSchema, type JobRequest, type JobRunner, type JobView } from "./job.js";
import { emptyCounts, type JobCounts, type JobQueue, QueueFullError, QueueUnavailableError, type RunCounts } from "./queue.js";

export interface BullmqQueueOptions {
  url: string;
  logger: Logger;
  /** Jobs this process runs at once (SERVICE_JOB_WORKERS). */
  workers: number;
  /** Jobs waiting at most, all replicas together (SERVICE_MAX_QUEUED_JOBS). */
  maxQueued: number;
  /** How long a finished job is kept (SERVICE_JOB_RETENTION_MS). */
  retentionMs: number;
  /** Runs of a job whose process died before it is failed (SERVICE_JOB_ATTEMPTS). */
  attempts: number;
  /** How long a worker's lock on a job lasts unrenewed: a dead replica's job is taken again after about this long. */
  lockMs: number;
  /** Runs of comparison jobs this process analyses at once, when comparisons are spread over the replicas. */
  runWorkers?: number;
}

export const QUEUE_NAME = "analysis-jobs";
/** A comparison job's name when its runs are spread over the replicas. */
const COMPARE_JOB = "compare";
const PREFIX = "mld:v1:bull";

/** ioredis' errors for a connection lost mid-command, refused, or too slow (the client may not know it is down yet). */
const CONNECTION_TROUBLE = /Connection is closed|Stream isn't writeable|Command timed out|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT/;

/** An analysis job's data, or a comparison's (its body, then its runs' plan: bullmq-fan-out.ts). */
type JobData = { body: unknown } | CompareJobData;

/**
 * Jobs in Redis through BullMQ, shared by every replica: any replica's workers take them, any replica answers
 * GET. A job's outcome (result, error as a value, or cancelled) is its BullMQ return value, so an analysis is
 * never retried for failing; only a replica dying mid-job makes BullMQ run it again (its lock expires, the job
 * stalls and is moved back to waiting, at most `attempts - 1` times). A cancellation is a key any replica
 * writes and the running worker polls. Given the comparison's steps, a comparison job is spread over every
 * replica, one child job per run (bullmq-fan-out.ts); without them it runs whole, as an analysis does.
 */
export class BullmqJobQueue implements JobQueue {
  private readonly client: Redis;
  private readonly queue: Queue<JobData, JobOutcome>;
  private readonly worker: Worker<JobData, JobOutcome>;
  private readonly workerConnection: Redis;
  private readonly cancels: CancelFlags;
  private readonly fanOut: CompareFanOut | null;
  private snapshot: JobCounts = emptyCounts();
  private runSnapshot: RunCounts = { queued: 0, running: 0 };
  private readonly refresher: NodeJS.Timeout;

  constructor(
    runner: JobRunner,
    private readonly options: BullmqQueueOptions,
    private readonly compare: CompareSteps | null = null,
  ) {
    const { Queue, Worker } = bullmq();
    const { Redis } = ioredis();
    const where = redisAddress(options.url);
    let warned = false;
    // Fail fast while Redis is down: a submission or a read answers 503 instead of waiting for it.
    this.client = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: (n) => Math.min(n * 100, 2000) });
    this.client.on("error", (err: Error) => {
      if (!warned) options.logger.warn("Redis unavailable: jobs can be neither queued nor read until it is back", { redis: where, problem: err.message });
      warned = true;
    });
    this.client.on("ready", () => (warned = false));
    this.queue = new Queue<JobData, JobOutcome>(QUEUE_NAME, { connection: this.client, prefix: PREFIX });
    this.queue.on("error", () => {});
    this.cancels = new CancelFlags(this.client, `${PREFIX}:${QUEUE_NAME}`);
    // BullMQ's workers wait on blocking commands: their connection retries forever rather than failing fast.
    const workerConnection = new Redis(options.url, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 100, 2000) });
    workerConnection.on("error", () => {});
    this.workerConnection = workerConnection;
    this.fanOut = compare
      ? new CompareFanOut(compare, this.cancels, this.client, workerConnection, {
          prefix: PREFIX,
          logger: options.logger,
          concurrency: options.runWorkers ?? options.workers,
          attempts: options.attempts,
          lockMs: options.lockMs,
          retentionMs: options.retentionMs,
        })
      : null;
    this.worker = new Worker<JobData, JobOutcome>(QUEUE_NAME, (job, token, signal) => this.process(runner, job, token, signal), {
      connection: workerConnection,
      prefix: PREFIX,
      concurrency: options.workers,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: options.attempts - 1,
    });
    this.worker.on("error", () => {});
    // A comparison failed (one of its runs failed past its attempts): its other runs, running or queued, are of no use.
    this.worker.on("failed", (job) => {
      if (job?.id && job.name === COMPARE_JOB) void this.cancels.set(job.id, options.retentionMs).catch(() => {});
    });
    this.refresher = setInterval(() => void this.refreshCounts(), 5000).unref();
  }

  private outcomesKey(): string {
    return `${PREFIX}:${QUEUE_NAME}:outcomes`;
  }

  /** One pass of a job; a comparison's first pass ends parked until its runs are done (a BullMQ error, not an outcome). */
  private async process(runner: JobRunner, job: Job<JobData, JobOutcome>, token: string | undefined, signal: AbortSignal | undefined): Promise<JobOutcome> {
    const id = job.id!;
    const controller = new AbortController();
    signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    let outcome: JobOutcome;
    if (await this.cancels.isSet(id)) outcome = { state: "cancelled" };
    else {
      const stop = this.cancels.watch(id, controller);
      try {
        const progress = (p: JobProgress) => void job.updateProgress(p as object).catch(() => {});
        const context: JobContext = { signal: controller.signal, progress };
        outcome =
          this.fanOut && job.name === COMPARE_JOB
            ? await this.fanOut.process(job as Job<CompareJobData, JobOutcome>, token, context)
            : await runner({ id, body: (job.data as { body: unknown }).body }, context);
        if (controller.signal.aborted && (await this.cancels.isSet(id))) outcome = { state: "cancelled" };
      } finally {
        stop();
      }
    }
    await this.client.hincrby(this.outcomesKey(), outcome.state, 1).catch(() => {});
    return outcome;
  }

  private async unavailable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      // Only Redis being away is "unavailable": anything else is a fault of ours, answered 500 and logged.
      if (err instanceof QueueFullError || (this.client.status === "ready" && !CONNECTION_TROUBLE.test((err as Error).message))) throw err;
      throw new QueueUnavailableError(`the job queue's Redis is unavailable (${(err as Error).message}); retry shortly`);
    }
  }

  async submit(request: JobRequest): Promise<void> {
    await this.unavailable(async () => {
      const waiting = await this.queue.getJobCountByTypes(...WAITING_STATES);
      if (waiting >= this.options.maxQueued) throw new QueueFullError(waiting);
      const age = Math.ceil(this.options.retentionMs / 1000);
      const name = this.compare?.isCompare(request.body) ? COMPARE_JOB : "analysis";
      await this.queue.add(name, { body: request.body }, { jobId: request.id, attempts: this.options.attempts, removeOnComplete: { age }, removeOnFail: { age } });
    });
    void this.refreshCounts();
  }

  async get(id: string): Promise<JobView | null> {
    return this.unavailable(async () => {
      const [job, cancelled] = await Promise.all([this.queue.getJob(id) as Promise<Job<JobData, JobOutcome> | undefined>, this.cancels.isSet(id)]);
      const view = (state: JobView["state"], extra: Partial<JobView> = {}): JobView => ({ id, state, progress: null, result: null, error: null, ...extra });
      if (!job) return cancelled ? view("cancelled") : null;
      // BullMQ trims finished jobs by age only when another job finishes: past the retention a job is gone here.
      if (job.finishedOn && Date.now() - job.finishedOn > this.options.retentionMs) return null;
      const state = await job.getState();
      // Read back from Redis: checked, so a value some other writer left there is no progress rather than a wrong one.
      const parsed = JobProgressSchema.safeParse(job.progress);
      const progress = this.fanOut && job.name === COMPARE_JOB ? await this.fanOut.progress(job as Job<CompareJobData, JobOutcome>) : parsed.success ? parsed.data : null;
      if (state === "completed") {
        // The job may have finished between reading it and reading its state: read it again for its outcome.
        const outcome = job.returnvalue ?? ((await this.queue.getJob(id)) as Job<JobData, JobOutcome> | undefined)?.returnvalue;
        if (!outcome) return view("running", { progress });
        if (outcome.state === "done") return view("done", { progress, result: outcome.result });
        if (outcome.state === "failed") return view("failed", { progress, error: outcome.error });
        return view("cancelled", { progress });
      }
      if (state === "failed") {
        const run = this.fanOut && job.name === COMPARE_JOB ? await this.fanOut.failure(job as Job<CompareJobData, JobOutcome>) : null;
        const detail = run ? `the comparison failed: ${run}` : `the job could not be run: ${job.failedReason}`;
        return view("failed", { progress, error: { status: 500, code: "ANALYSIS_FAILED", detail } });
      }
      if (cancelled) return view("cancelled", { progress });
      // A comparison whose runs are queued is running, parked or not: its runs are being worked.
      const running = state === "active" || state === "waiting-children" || "step" in job.data;
      return view(running ? "running" : "queued", { progress });
    });
  }

  async cancel(id: string): Promise<JobView | null> {
    const current = await this.get(id);
    if (!current || current.state === "done" || current.state === "failed" || current.state === "cancelled") return current;
    await this.unavailable(() => this.cancels.set(id, this.options.retentionMs));
    // A job still waiting never runs: the worker that takes it finds the key and ends it as cancelled.
    return { ...current, state: "cancelled" };
  }

  counts(): JobCounts {
    return { ...this.snapshot };
  }

  runsAnalysedHere(): number {
    return this.fanOut?.analysedHere ?? 0;
  }

  runCounts(): RunCounts {
    return { ...this.runSnapshot };
  }

  private async refreshCounts(): Promise<void> {
    try {
      const [queued, counts, outcomes, runs] = await Promise.all([
        this.queue.getJobCountByTypes(...WAITING_STATES),
        this.queue.getJobCounts("active", "waiting-children"),
        this.client.hgetall(this.outcomesKey()),
        this.fanOut?.counts() ?? this.runSnapshot,
      ]);
      this.runSnapshot = runs;
      this.snapshot = {
        queued,
        running: (counts.active ?? 0) + (counts["waiting-children"] ?? 0),
        done: Number(outcomes.done ?? 0),
        failed: Number(outcomes.failed ?? 0),
        cancelled: Number(outcomes.cancelled ?? 0),
      };
    } catch {
      // Redis is down: /metrics keeps the last counts; /readyz says why.
    }
  }

  async close(): Promise<void> {
    clearInterval(this.refresher);
    // With Redis gone nothing can be handed back: do not wait for running jobs (BullMQ retakes them once it is back).
    await this.worker.close(this.client.status !== "ready").catch(() => {});
    await this.fanOut?.close(this.client.status !== "ready");
    await this.queue.close().catch(() => {});
    this.client.disconnect();
    this.workerConnection.disconnect();
  }
}
