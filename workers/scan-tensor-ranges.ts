import { type RangeScanJob, type SliceStats, scanTensorRanges } from "../nodes/checkpoint/file/range-scan.js";
import type { TaskOutput } from "./pool.js";

/** Worker task: one piece of a split checkpoint scan → each slice's statistics, the arrays of parts transferred. */
export async function scanTensorRangesTask(job: RangeScanJob): Promise<TaskOutput<SliceStats[]>> {
  const parts = await scanTensorRanges(job);
  const arrays = parts.flatMap((s) => ("part" in s ? [s.part.codes?.code, s.part.codes?.count, s.part.unitMax] : []));
  const transfer = arrays.flatMap((a) => (a ? [a.buffer as ArrayBuffer] : []));
  return { value: parts, transfer };
}
