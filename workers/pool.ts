import { availableParallelism } from "node:os";
import { Piscina } from "piscina";

/**
 * What a task gives back: its value, and the buffers inside it to transfer to the caller rather than copy
 * (the caller's thread pays for every byte it has to deserialize).
 */
export interface TaskOutput<T> {
  value: T;
  transfer: ArrayBuffer[];
}

/**
 * The tasks a worker can run, by name. The pool knows no task: the worker's entry (workers/tasks.ts, a composition
 * root, in tsconfig's include so the augmentation is seen) registers its functions here by augmenting this
 * interface, so callers are type-checked against them.
 */
export interface RegisteredTasks {}

export type TaskFunction = (payload: never) => TaskOutput<unknown> | Promise<TaskOutput<unknown>>;
type Task<N extends TaskName> = RegisteredTasks[N] extends TaskFunction ? RegisteredTasks[N] : never;
export type TaskName = keyof RegisteredTasks;
export type TaskPayload<N extends TaskName> = Parameters<Task<N>>[0];
export type TaskResult<N extends TaskName> = Awaited<ReturnType<Task<N>>> extends TaskOutput<infer R> ? R : never;

/** A worker kept this long after its last task, so a burst of tasks does not pay for thread start-up each time. */
const IDLE_TIMEOUT_MS = 60_000;

/** Threads of the pool: one per core. */
export const POOL_THREADS = availableParallelism();

let pool: Piscina | null = null;
/** Tasks sent and not yet settled, so an idle pool can be closed without cutting one short. */
let running = 0;

/**
 * The process's one pool, one thread per core, started on first use (idle threads do not keep the process alive).
 * Piscina emits "error" on the pool for what belongs to no task, e.g. the answer of a task aborted while that
 * answer was already on its way ("Unexpected message from Worker"); an EventEmitter with no listener throws it as an
 * uncaught exception, which would end the service over an analysis that had already ended. It becomes a warning.
 */
export function sharedPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL("./entry.mjs", import.meta.url).href,
    minThreads: 0,
    maxThreads: POOL_THREADS,
    idleTimeout: IDLE_TIMEOUT_MS,
  }).on("error", (err: Error) => process.emitWarning(`worker pool: ${err.message}`, "WorkerPoolWarning"));
  return pool;
}

export interface RunOptions {
  /** Buffers in the payload to move to the worker instead of copying (the caller must not use them after). */
  transfer?: ArrayBuffer[];
  signal?: AbortSignal;
}

/** Runs a task registered by workers/tasks.ts on a worker thread, off the event loop. */
export async function runTask<N extends TaskName>(task: N, payload: TaskPayload<N>, options: RunOptions = {}): Promise<TaskResult<N>> {
  running++;
  try {
    return await sharedPool().run({ task, payload }, { transferList: options.transfer, signal: options.signal });
  } finally {
    running--;
  }
}

/**
 * Ends the pool's threads when no task is running: each thread is a V8 isolate of its own whose heap keeps what a
 * large task left (tens to hundreds of MB) until the thread ends. The next task starts a new pool. Returns whether
 * threads were ended.
 */
export function releaseIdlePool(): boolean {
  if (!pool || running > 0 || pool.threads.length === 0) return false;
  const idle = pool;
  pool = null;
  void idle.destroy();
  return true;
}
