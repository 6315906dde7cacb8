import type { ScanSplitter } from "../nodes/checkpoint/file/split-scan.js";
import { POOL_THREADS, runTask } from "./pool.js";

/** Splits a large checkpoint's tensor data across the worker pool's threads (`ScanOptions.split`). */
export const poolScanSplitter: ScanSplitter = {
  threads: POOL_THREADS,
  run: (job, signal) => runTask("scanTensorRanges", job, { signal }),
};
