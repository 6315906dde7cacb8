import { hostname } from "node:os";
import type { Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../config/logger.js";
import { bullmq } from "../redis/libraries.js";
import type { CancelFlags } from "./bullmq-cancel.js";
import type { RunCounts } from "./queue.js";
import { type CompareSteps, isOutcome, type JobContext, type JobOutcome, type JobProgress, JobProgressSchema } from "./job.js";

export const RUNS_QUEUE_NAME = "analysis-job-runs";

/** BullMQ's states of a job not yet taken by a worker: what "queued" means for jobs and runs alike. */
export const WAITING_STATES = ["waiting", "prioritized", "delayed"] as const;

/** Which process analysed a run, recorded in the run's result (logs and tests tell the replicas apart by it). */
export const WORKER_ID = `${hostname()}:${process.pid}`;

/** A comparison job's data: the request body until its runs are queued, then what the conclusion needs. */
export type CompareJobData = { body: unknown } | { step: "runs"; head: unknown; total: number };

interface RunJobData {
  /** The comparison job's id (its cancellation key). */
  parent: string;
  index: number;
  input: unknown;
}

/** A run's return value, kept in its parent's results once the run is done (the run job itself is removed). */
interface RunResult {
  index: number;
  worker: string;
  outcome: JobOutcome;
}

export interface FanOutOptions {
  prefix: string;
  logger: Logger;
  /** Runs one process analyses at once. */
  concurrency: number;
  attempts: number;
  lockMs: number;
  retentionMs: number;
}

/**
 * A comparison job spread over every replica with BullMQ's parent and child jobs (BullMQ's "flows"): the
 * comparison job plans (decodes, expands tracking-server selectors), adds one child job per run to the runs
 * queue with itself as their parent, and waits in `waiting-children` holding no worker; any replica's workers
 * analyse the runs; when the last one is done BullMQ moves the parent back to waiting, and the worker that takes
 * it reads every run's result (kept on the parent) and runs the cross-run conclusion. The children are added by
 * the running parent (BullMQ's "process step jobs" pattern), not with a FlowProducer at submission, because a
 * comparison's runs are known only once its selectors are expanded. A run whose replica died is taken again
 * when its lock expires (a run's result is a function of its input, so a second run gives the same result); a
 * run that stalls past the attempts fails the comparison.
 */
export class CompareFanOut {
  private readonly runs: Queue<RunJobData, RunResult>;
  private readonly worker: Worker<RunJobData, RunResult>;
  /** Runs this process analysed (any comparison, submitted to any replica), for /metrics. */
  analysedHere = 0;

  constructor(
    private readonly steps: CompareSteps,
    private readonly cancels: CancelFlags,
    client: Redis,
    workerConnection: Redis,
    private readonly options: FanOutOptions,
  ) {
    const { Queue, Worker } = bullmq();
    this.runs = new Queue<RunJobData, RunResult>(RUNS_QUEUE_NAME, { connection: client, prefix: options.prefix });
    this.runs.on("error", () => {});
    this.worker = new Worker<RunJobData, RunResult>(RUNS_QUEUE_NAME, (job, _token, signal) => this.analyse(job, signal), {
      connection: workerConnection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: options.attempts - 1,
    });
    this.worker.on("error", () => {});
  }

  /**
   * One pass of a comparison job: plans and queues its runs, then waits for them (throws BullMQ's
   * WaitingChildrenError: the job is parked, not failed); on the pass after the last run, concludes.
   */
  async process(job: Job<CompareJobData, JobOutcome>, token: string | undefined, context: JobContext): Promise<JobOutcome> {
    const id = job.id!;
    if ("body" in job.data) {
      const plan = await this.steps.plan({ id, body: job.data.body }, context);
      if (isOutcome(plan)) return plan;
      const age = Math.ceil(this.options.retentionMs / 1000);
      // Ids of the parent's: a pass repeated after its replica died adds no second copy of a run still queued.
      await this.runs.addBulk(
        plan.runs.map((input, index) => ({
          name: "run",
          data: { parent: id, index, input },
          opts: {
            jobId: `${id}-run-${index}`,
            parent: { id, queue: job.queueQualifiedName },
            failParentOnFailure: true,
            attempts: this.options.attempts,
            // The result lives on in the parent's results; the run's input (its share of the body) goes at once.
            removeOnComplete: true,
            removeOnFail: { age },
          },
        })),
      );
      // The body is not needed any more: the runs carry their inputs, the conclusion needs the head only.
      await job.updateData({ step: "runs", head: plan.head, total: plan.runs.length });
      context.progress({ runs_done: 0, runs_total: plan.runs.length, message: `${plan.runs.length} runs queued` });
    }
    if (!("step" in job.data)) throw new Error(`comparison job ${id} has neither a body nor its runs`);
    const { head, total } = job.data;
    if (token && (await job.moveToWaitingChildren(token))) throw new (bullmq().WaitingChildrenError)();
    const results = Object.values(await job.getChildrenValues<RunResult>()).sort((a, b) => a.index - b.index);
    // A run that failed or was cancelled ends the comparison as it would have ended POST /v1/compare.
    const stopped = results.find((r) => r.outcome.state !== "done");
    if (stopped) return stopped.outcome;
    if (results.length !== total) return { state: "failed", error: { status: 500, code: "ANALYSIS_FAILED", detail: `${results.length} of the comparison's ${total} runs have a result; submit it again` } };
    const progress = (p: JobProgress) => context.progress({ ...p, runs_done: total, runs_total: total });
    const outcome = await this.steps.conclude({ id, head }, results.map((r) => (r.outcome as { result: unknown }).result), { ...context, progress });
    // Ends as a comparison run whole ends (server/job-runner.ts), whatever the conclusion said last.
    progress({ message: `${total} of ${total} runs analysed` });
    return outcome;
  }

  /** One run, on whichever replica took it; a run of a cancelled comparison ends at once. */
  private async analyse(job: Job<RunJobData, RunResult>, signal: AbortSignal | undefined): Promise<RunResult> {
    const { parent, index, input } = job.data;
    const result = (outcome: JobOutcome): RunResult => ({ index, worker: WORKER_ID, outcome });
    if (await this.cancels.isSet(parent)) return result({ state: "cancelled" });
    const controller = new AbortController();
    signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    const stop = this.cancels.watch(parent, controller);
    this.options.logger.info("comparison run started", { job_id: parent, run: index, worker: WORKER_ID, attempt: job.attemptsStarted });
    try {
      const outcome = await this.steps.analyseRun(parent, input, { signal: controller.signal, progress: () => {} });
      this.analysedHere++;
      this.options.logger.info("comparison run analysed", { job_id: parent, run: index, worker: WORKER_ID, state: outcome.state });
      return result(controller.signal.aborted && (await this.cancels.isSet(parent)) ? { state: "cancelled" } : outcome);
    } finally {
      stop();
    }
  }

  /**
   * A comparison's progress once its runs are queued: runs done so far, read from its children's results (the
   * progress it stored names the runs queued, then the conclusion; it is never behind the runs done).
   */
  async progress(job: Job<CompareJobData, JobOutcome>): Promise<JobProgress | null> {
    const parsed = JobProgressSchema.safeParse(job.progress);
    const stored = parsed.success ? parsed.data : null;
    if (!("step" in job.data)) return stored;
    const total = job.data.total;
    const { processed = 0 } = await job.getDependenciesCount({ processed: true });
    if (stored?.runs_done === total) return stored;
    return { runs_done: processed, runs_total: total, message: `${processed} of ${total} runs analysed` };
  }

  /**
   * Why a comparison failed, when one of its runs failed past its attempts: BullMQ fails the parent with "child
   * <run's key> failed"; the answer names the run by its place in the request and gives the run's own error.
   */
  async failure(job: Job<CompareJobData, JobOutcome>): Promise<string | null> {
    const child = `child ${this.runs.qualifiedName}:${job.id}-run-`;
    const reason = job.failedReason ?? "";
    if (!reason.startsWith(child) || !reason.endsWith(" failed")) return null;
    const index = Number(reason.slice(child.length, -" failed".length));
    const of = "step" in job.data ? ` of ${job.data.total}` : "";
    // The failed run is kept as long as its parent (removeOnFail by the same age); without it, its place still says which.
    const run = await this.runs.getJob(`${job.id}-run-${index}`);
    const why = run ? ` after ${run.attemptsMade} attempts: ${run.failedReason}` : "";
    return `run ${index + 1}${of} failed${why}`;
  }

  /** The runs queue's depth, all replicas together. */
  async counts(): Promise<RunCounts> {
    const [queued, running] = await Promise.all([this.runs.getJobCountByTypes(...WAITING_STATES), this.runs.getJobCountByTypes("active")]);
    return { queued, running };
  }

  async close(force: boolean): Promise<void> {
    await this.worker.close(force).catch(() => {});
    await this.runs.close().catch(() => {});
  }
}
