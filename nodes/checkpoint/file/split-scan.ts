import { setMaxListeners } from "node:events";
import type { DType } from "./dtypes.js";
import type { RangeScanJob, SliceStats, TensorSlice } from "./range-scan.js";
import { elementSize, layoutOf } from "./stats-layout.js";

/** Tensor data to measure: its bytes in the file and what its accumulator needs. */
export interface TensorRegion {
  dtype: DType;
  units: number | null;
  numel: number;
  start: number;
  end: number;
}

/**
 * Runs pieces of a split scan on other threads. The worker pool is wired in at the edge (the checkpoint node, the
 * bench), so the file readers stay plain functions that any caller can use without threads.
 */
export interface ScanSplitter {
  /** Pieces that can run at once (the pool's threads). */
  threads: number;
  /** Scans one piece (`scanTensorRanges` on a worker thread); rejects, and stops the thread, when `signal` aborts. */
  run(job: RangeScanJob, signal: AbortSignal): Promise<SliceStats[]>;
  /** Tensor bytes from which a file is split (default SPLIT_MIN_BYTES); a smaller file is read on the calling thread. */
  minBytes?: number;
  /** Pieces to cut the tensor data into (default: about PIECE_BYTES each, a multiple of `threads`). */
  pieces?: number;
}

/**
 * Below this many bytes of tensor data a file is read on the calling thread, where it costs less than the hand-off
 * to warm worker threads; from here the split costs no time and frees the event loop, and from a few hundred MiB
 * it is 1.5–1.75× faster on 2 cores (docs/checkpoints.md, "Tensor statistics on every core").
 */
export const SPLIT_MIN_BYTES = 32 << 20;
/**
 * Bytes per piece: small enough that a thread slowed by other work on the machine leaves little for the others to
 * wait on at the end, large enough that each piece's hand-off (a file open, a message, the code counts of its
 * 16-bit tensors) stays a small fraction of its time.
 */
const PIECE_BYTES = 64 << 20;
/**
 * Cuts inside a tensor fall on multiples of this many bytes from its start: a whole number of elements of every
 * type, a multiple of four float32 elements (the stride of the fast kernels), and page-aligned reads.
 */
export const CUT_ALIGN = 4096;

/** A slice of a piece, with the index of the region it belongs to. */
export type PlannedSlice = TensorSlice & { region: number };

/** How many pieces a split scan of `bytes` uses by default. */
export function defaultPieces(bytes: number, threads: number): number {
  return threads * Math.max(1, Math.round(bytes / (threads * PIECE_BYTES)));
}

/**
 * Cuts the regions, taken in file order, into at most `pieces` runs of about equal bytes; a region crossing a
 * piece boundary is cut at a multiple of CUT_ALIGN bytes from its start, so each part is whole elements.
 */
export function planPieces(regions: readonly TensorRegion[], pieces: number): PlannedSlice[][] {
  const order = regions.map((_, i) => i).filter((i) => regions[i]!.end > regions[i]!.start);
  order.sort((a, b) => regions[a]!.start - regions[b]!.start || a - b);
  const total = order.reduce((n, i) => n + regions[i]!.end - regions[i]!.start, 0);
  const out: PlannedSlice[][] = [[]];
  let piece = 0;
  let done = 0;
  for (const index of order) {
    const r = regions[index]!;
    const size = elementSize(layoutOf(r.dtype)!);
    let from = r.start;
    while (from < r.end) {
      const last = piece === pieces - 1;
      const goal = Math.round(((piece + 1) * total) / pieces);
      let to = r.end;
      if (!last && done + (r.end - from) > goal) {
        to = Math.min(r.end, r.start + Math.round((from - r.start + goal - done) / CUT_ALIGN) * CUT_ALIGN);
      }
      if (to > from) {
        out[piece]!.push({ region: index, dtype: r.dtype, units: r.units, numel: r.numel, first: (from - r.start) / size, from, to, whole: from === r.start && to === r.end });
        done += to - from;
        from = to;
      }
      // A region cut short (or not entered: the piece's remaining quota was under half an alignment) fills the piece.
      if (!last && (from < r.end || done >= goal)) {
        piece++;
        out.push([]);
      }
    }
  }
  return out.filter((p) => p.length > 0);
}

export interface SplitScanOptions {
  signal?: AbortSignal;
  chunkBytes?: number;
  /** Called as each piece is merged, with its bytes. */
  onBytes?: (bytes: number) => void;
}

/**
 * Scans the regions' data in `pieces` pieces on the splitter's threads and hands each slice's statistics to
 * `absorb` (with the slice: its region and bytes) in file order, whatever order the pieces finish in, so float
 * sums round the same way on every run. A failed piece stops the others; an abort rejects with the signal's reason.
 */
export async function scanInPieces(
  path: string,
  regions: readonly TensorRegion[],
  splitter: ScanSplitter,
  pieces: number,
  absorb: (slice: PlannedSlice, stats: SliceStats) => void,
  options: SplitScanOptions = {},
): Promise<void> {
  const plan = planPieces(regions, pieces);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  // The pool listens once per queued piece.
  setMaxListeners(plan.length + 10, signal);
  const results: Array<SliceStats[] | null> = plan.map(() => null);
  let next = 0;
  const deliver = () => {
    for (; next < plan.length && results[next]; next++) {
      const slices = plan[next]!;
      results[next]!.forEach((part, i) => absorb(slices[i]!, part));
      results[next] = null;
      options.onBytes?.(slices.reduce((n, s) => n + s.to - s.from, 0));
    }
  };
  const runs = plan.map(async (slices, k) => {
    const job: RangeScanJob = { path, slices: slices.map(({ region: _, ...slice }) => slice), chunkBytes: options.chunkBytes };
    results[k] = await splitter.run(job, signal);
    deliver();
  });
  try {
    await Promise.all(runs);
  } catch (err) {
    stop.abort(err);
    await Promise.allSettled(runs);
    options.signal?.throwIfAborted();
    throw err;
  }
}
