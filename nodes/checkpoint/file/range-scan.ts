import { open } from "node:fs/promises";
import type { DType } from "./dtypes.js";
import { readRegions } from "./range-reader.js";
import type { PartialTensorStats } from "./stats-merge.js";
import { TensorStatsAccumulator, type TensorStats } from "./tensor-stats.js";

/** Bytes [from, to) of one tensor, from its element `first` on (the accumulator's arguments, and where to read). */
export interface TensorSlice {
  dtype: DType;
  units: number | null;
  numel: number;
  first: number;
  from: number;
  to: number;
  /** The slice is the whole tensor: its statistics are finished here, not merged. */
  whole: boolean;
}

/** A slice's statistics: final for a whole tensor (the single-thread scan's own computation), else a part to merge. */
export type SliceStats = { whole: TensorStats } | { part: PartialTensorStats };

/** One piece of a split scan: slices of tensors, read in one front-to-back pass over the file. */
export interface RangeScanJob {
  path: string;
  slices: TensorSlice[];
  /** Read size, as `ScanOptions.chunkBytes`. */
  chunkBytes?: number;
}

/**
 * Reads the slices of one piece with a file handle of its own, in bounded chunks (two chunk buffers), and gives
 * each slice's statistics, in slice order: finished for a whole tensor, mergeable for part of one. A slice's accumulator exists only while its bytes
 * are read, so a piece of many small tensors holds one code histogram at a time. Runs on a worker thread
 * (workers/tasks.ts); the pool stops the thread when the scan is aborted, so no signal is checked here.
 */
export async function scanTensorRanges(job: RangeScanJob): Promise<SliceStats[]> {
  const fh = await open(job.path, "r");
  try {
    const parts: SliceStats[] = [];
    const regions = job.slices.map((s, i) => {
      let acc: TensorStatsAccumulator | null = null;
      let left = s.to - s.from;
      return {
        start: s.from,
        end: s.to,
        consume: (bytes: Uint8Array) => {
          acc ??= new TensorStatsAccumulator(s.dtype, s.units, s.numel, s.first);
          acc.push(bytes);
          left -= bytes.length;
          if (left === 0) parts[i] = s.whole ? { whole: acc.finish() } : { part: acc.partial() };
        },
      };
    });
    await readRegions(fh, regions, { chunkBytes: job.chunkBytes });
    return parts;
  } finally {
    await fh.close();
  }
}
