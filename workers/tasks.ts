import { examineTask } from "./examine-task.js";
import { parseJsonPartTask, parseJsonTask } from "./parse-json.js";
import { scanTensorRangesTask } from "./scan-tensor-ranges.js";

/**
 * What a task gives back: its value, and the buffers inside it to transfer to the caller rather than copy
 * (the caller's thread pays for every byte it has to deserialize).
 */
export interface TaskOutput<T> {
  value: T;
  transfer: ArrayBuffer[];
}

/**
 * Every task the worker pool can run, by name: plain functions from a payload to a TaskOutput. A CPU-heavy step
 * becomes a task by adding it here; the pool (workers/pool.ts) is the only wiring.
 */
export const TASKS = {
  parseJson: parseJsonTask,
  parseJsonPart: parseJsonPartTask,
  scanTensorRanges: scanTensorRangesTask,
  examine: examineTask,
} satisfies Record<string, (payload: never) => TaskOutput<unknown> | Promise<TaskOutput<unknown>>>;

export type TaskName = keyof typeof TASKS;
export type TaskPayload<N extends TaskName> = Parameters<(typeof TASKS)[N]>[0];
export type TaskResult<N extends TaskName> = Awaited<ReturnType<(typeof TASKS)[N]>>["value"];
