// Worker for checkpoint_scan: scans a safetensors file with the service's scanner in a process of its own, so
// the peak RSS it reports is the scan's (the pool's threads included), split across the worker pool as the
// checkpoint node does, then once on this thread alone, then scans one file per dtype (written beside it) to show
// each decoder's throughput. argv: <file> <repeats> <bytes per dtype file>. Sends one ScanRun over IPC.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { scanCheckpointFile } from "../../nodes/checkpoint/file/scan.js";
import { SPLIT_MIN_BYTES } from "../../nodes/checkpoint/file/split-scan.js";
import { poolScanSplitter } from "../../workers/scan-splitter.js";
import { type GeneratedDtype, type SafetensorsLayout, writeSafetensors } from "../data/safetensors-file.js";
import { since } from "../lib/stats.js";

export interface ScanRun {
  bytes: number;
  scanMs: number[];
  /** The same file read on one thread (no split), once. */
  inlineMs: number;
  /** Throughput (GB/s) on a file holding only this dtype. */
  gbpsByDtype: Partial<Record<GeneratedDtype, number>>;
  idleRssBytes: number;
  peakRssBytes: number;
  tensors: number;
  tensorsWithStats: number;
  nanCount: number;
  zeroCount: number;
  headerOnly: boolean;
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const [file, repeatsArg, dtypeBytesArg] = process.argv.slice(2);
const repeats = Number(repeatsArg);
const dtypeBytes = Number(dtypeBytesArg);
if (!file || !(repeats > 0) || !(dtypeBytes > 0)) throw new Error("usage: checkpoint-scan.ts <file> <repeats> <bytes per dtype file>");

/** Scans a throw-away file beside the measured one and returns how long it took. */
async function scanTemporary(name: string, bytes: number, layout: SafetensorsLayout): Promise<{ ms: number; bytes: number }> {
  const path = join(dirname(file!), name);
  const written = writeSafetensors(path, bytes, layout);
  const started = performance.now();
  await scanCheckpointFile(path, { split: poolScanSplitter });
  const ms = since(started);
  rmSync(path);
  return { ms, bytes: written.bytes };
}

// Warm the scanner (JIT, and the pool's threads as a running service has them) on a file of the same layout,
// large enough to be split, before anything is measured.
await scanTemporary("warmup.safetensors", 2 * SPLIT_MIN_BYTES, { width: 256 });
const idleRssBytes = peakRss();

const scanMs: number[] = [];
let last: Awaited<ReturnType<typeof scanCheckpointFile>> | undefined;
for (let i = 0; i < repeats; i++) {
  const started = performance.now();
  last = await scanCheckpointFile(file, { split: poolScanSplitter });
  scanMs.push(since(started));
}
const peakRssBytes = peakRss();
const inlineStarted = performance.now();
await scanCheckpointFile(file);
const inlineMs = since(inlineStarted);
const gbpsByDtype: ScanRun["gbpsByDtype"] = {};
for (const dtype of ["F32", "BF16", "F16"] as const) {
  const { ms, bytes } = await scanTemporary(`${dtype}.safetensors`, dtypeBytes, { dtype });
  gbpsByDtype[dtype] = bytes / 1e9 / (ms / 1000);
}
const tensors = last!.tensors;
const run: ScanRun = {
  bytes: last!.fileSize,
  scanMs,
  inlineMs,
  gbpsByDtype,
  idleRssBytes,
  peakRssBytes,
  tensors: tensors.length,
  tensorsWithStats: tensors.filter((t) => t.stats !== null).length,
  nanCount: tensors.reduce((n, t) => n + (t.stats?.nanCount ?? 0), 0),
  zeroCount: tensors.reduce((n, t) => n + (t.stats?.zeroCount ?? 0), 0),
  headerOnly: last!.headerOnly,
};
process.send!(run, () => process.exit(0));
