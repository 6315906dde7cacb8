// Worker for checkpoint_scan: scans a safetensors file with the service's scanner in a process of its own, so
// the peak RSS it reports is the scan's. argv: <file> <repeats>. Sends one ScanRun over IPC.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { dirname } from "node:path";
import { scanCheckpointFile } from "../../nodes/checkpoint/file/scan.js";
import { writeSafetensors } from "../data/safetensors-file.js";
import { since } from "../lib/stats.js";

export interface ScanRun {
  bytes: number;
  scanMs: number[];
  idleRssBytes: number;
  peakRssBytes: number;
  tensors: number;
  tensorsWithStats: number;
  nanCount: number;
  zeroCount: number;
  headerOnly: boolean;
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const [file, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg);
if (!file || !(repeats > 0)) throw new Error("usage: checkpoint-scan.ts <file> <repeats>");

// Warm the scanner (JIT) on a small file of the same layout before anything is measured.
const small = join(dirname(file), "warmup.safetensors");
writeSafetensors(small, 16 * 1024 ** 2, 256);
await scanCheckpointFile(small);
rmSync(small);
const idleRssBytes = peakRss();

const scanMs: number[] = [];
let last: Awaited<ReturnType<typeof scanCheckpointFile>> | undefined;
for (let i = 0; i < repeats; i++) {
  const started = performance.now();
  last = await scanCheckpointFile(file);
  scanMs.push(since(started));
}
const tensors = last!.tensors;
const run: ScanRun = {
  bytes: last!.fileSize,
  scanMs,
  idleRssBytes,
  peakRssBytes: peakRss(),
  tensors: tensors.length,
  tensorsWithStats: tensors.filter((t) => t.stats !== null).length,
  nanCount: tensors.reduce((n, t) => n + (t.stats?.nanCount ?? 0), 0),
  zeroCount: tensors.reduce((n, t) => n + (t.stats?.zeroCount ?? 0), 0),
  headerOnly: last!.headerOnly,
};
process.send!(run, () => process.exit(0));
