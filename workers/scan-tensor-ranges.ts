import { type RangeScanJob, scanTensorRanges } from "../nodes/checkpoint/file/range-scan.js";
import type { PartialTensorStats } from "../nodes/checkpoint/file/tensor-stats.js";
import type { TaskOutput } from "./tasks.js";

/** Worker task: one piece of a split checkpoint scan → each slice's mergeable statistics, arrays transferred. */
export async function scanTensorRangesTask(job: RangeScanJob): Promise<TaskOutput<PartialTensorStats[]>> {
  const parts = await scanTensorRanges(job);
  const transfer = parts.flatMap((p) => [p.codes?.code, p.codes?.count, p.unitMax].flatMap((a) => (a ? [a.buffer as ArrayBuffer] : [])));
  return { value: parts, transfer };
}
