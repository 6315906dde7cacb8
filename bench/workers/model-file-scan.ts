// Worker for model_file_scan: scans one generated model file (ONNX with external data, GGUF, HDF5) with the service's
// scanner in a process of its own, split across the worker pool as the checkpoint node runs it, so the peak RSS it
// reports is the scan's. argv: <file> <repeats>. Sends one ModelScanRun over IPC.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { scanCheckpointFile } from "../../nodes/checkpoint/file/scan.js";
import { SPLIT_MIN_BYTES } from "../../nodes/checkpoint/file/split-scan.js";
import { poolScanSplitter } from "../../workers/scan-splitter.js";
import { writeSafetensors } from "../data/safetensors-file.js";
import { since } from "../lib/stats.js";

export interface ModelScanRun {
  format: string;
  /** The first scan (page cache warm, code cold) and the ones after it. */
  firstMs: number;
  scanMs: number[];
  idleRssBytes: number;
  peakRssBytes: number;
  tensors: number;
  tensorsWithStats: number;
  bytesScanned: number;
}

const [file, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg);
if (!file || !(repeats > 0)) throw new Error("usage: model-file-scan.ts <file> <repeats>");

// Warm the pool's threads on a small split file as a running service has them (as checkpoint_scan's worker does), and
// load h5wasm's module as a service that has read one HDF5 file has it, before the idle mark.
const warmup = join(dirname(file), "warmup.safetensors");
writeSafetensors(warmup, 2 * SPLIT_MIN_BYTES, { width: 256 });
await scanCheckpointFile(warmup, { split: poolScanSplitter });
rmSync(warmup);
await (await import("h5wasm/node")).ready;
// The process's peak RSS (maxRSS) already holds the warm-up's, so the scans' peak is sampled: every 10 ms, and at the end.
const idleRssBytes = process.memoryUsage().rss;
let sampledPeak = idleRssBytes;
const sample = () => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss));
const sampler = setInterval(sample, 10);
let started = performance.now();
let last = await scanCheckpointFile(file, { split: poolScanSplitter });
const firstMs = since(started);
const scanMs: number[] = [];
for (let i = 0; i < repeats; i++) {
  started = performance.now();
  last = await scanCheckpointFile(file, { split: poolScanSplitter });
  scanMs.push(since(started));
}
clearInterval(sampler);
sample();
const run: ModelScanRun = {
  format: last.format,
  firstMs,
  scanMs,
  idleRssBytes,
  peakRssBytes: sampledPeak,
  tensors: last.tensors.length,
  tensorsWithStats: last.tensors.filter((t) => t.stats !== null).length,
  bytesScanned: last.bytesScanned,
};
process.send!(run, () => process.exit(0));
