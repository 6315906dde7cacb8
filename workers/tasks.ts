import { examineTask } from "./examine-task.js";
import { parseJsonPartTask, parseJsonTask } from "./parse-json.js";
import type { TaskFunction } from "./pool.js";
import { scanTensorRangesTask } from "./scan-tensor-ranges.js";

/**
 * Every task the worker pool can run, by name: plain functions from a payload to a TaskOutput. The worker's
 * composition root, like server/main.ts for the service: it imports the analyzers, the pool below them does not.
 * A CPU-heavy step becomes a task by adding it here.
 */
export const TASKS = {
  parseJson: parseJsonTask,
  parseJsonPart: parseJsonPartTask,
  scanTensorRanges: scanTensorRangesTask,
  examine: examineTask,
} satisfies Record<string, TaskFunction>;

type TaskTable = typeof TASKS;

// Registers the tasks' types with the pool, which imports nothing of them.
declare module "./pool.js" {
  interface RegisteredTasks extends TaskTable {}
}
