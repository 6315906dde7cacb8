import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeLightningMetricsCsv } from "../data/metrics-csv.js";
import { writeSafetensors } from "../data/safetensors-file.js";
import type { BenchProfile } from "../lib/options.js";
import { runWorker } from "../lib/processes.js";
import type { BenchResult, BenchRow } from "../lib/result.js";
import { childEnv, OUT_DIR, ROOT } from "../lib/service.js";
import { median, round } from "../lib/stats.js";
import type { PrepareRun } from "../workers/client-prepare.js";

const GB = 1e9;
const MB = 1024 ** 2;

async function prepare(path: string, repeats: number, log: string): Promise<PrepareRun> {
  const run = await runWorker<PrepareRun>(join(ROOT, "bench/workers/client-prepare.ts"), [path, String(repeats)], {
    cwd: ROOT,
    env: childEnv({}),
    logFile: join(OUT_DIR, log),
    timeoutMs: 1_800_000,
  });
  if (run.exitCode !== 0) throw new Error(`ml-diagnose analyse ${path} --dry-run exited ${run.exitCode}; see bench/out/${log}`);
  return run;
}

/**
 * client_prepare: the client-side time of `ml-diagnose analyse` before anything is sent (detection, the local
 * checkpoint scan into tensor_stats, request assembly and validation, JSON text), on a generated 1 GB safetensors
 * file and a 10⁶-row Lightning metrics.csv; the median of N runs in one process after its first run.
 */
export async function benchClientPrepare(profile: BenchProfile): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-client-"));
  try {
    const checkpoint = join(dir, "model.safetensors");
    const generated = writeSafetensors(checkpoint, profile.checkpointBytes);
    const csvRows = profile.mode === "full" ? 1_000_000 : 100_000;
    const runDir = join(dir, "lightning_logs", "version_0");
    mkdirSync(runDir, { recursive: true });
    const csvBytes = await writeLightningMetricsCsv(join(runDir, "metrics.csv"), csvRows);
    const repeats = profile.checkpointScans + 1;
    const scan = await prepare(checkpoint, repeats, "client-prepare-checkpoint.log");
    const csv = await prepare(runDir, repeats, "client-prepare-csv.log");
    // The first run pays for loading and JIT; what a person waits for on a warm disk is the rest.
    const warm = (r: PrepareRun) => median(r.ms.slice(1));
    const rows: BenchRow[] = [
      { metric: `${round(generated.bytes / GB)} GB safetensors (${generated.tensors} tensors): time to a ready request`, value: warm(scan) / 1000, unit: "s" },
      { metric: "  same, first run in the process", value: scan.ms[0]! / 1000, unit: "s" },
      { metric: "  throughput", value: generated.bytes / GB / (warm(scan) / 1000), unit: "GB/s" },
      { metric: "  request size", value: scan.requestBytes / MB, unit: "MB" },
      { metric: "  peak RSS", value: scan.peakRssBytes / MB, unit: "MB" },
      { metric: `${csvRows}-row metrics.csv (${round(csvBytes / MB)} MB): time to a ready request`, value: warm(csv) / 1000, unit: "s" },
      { metric: "  request size", value: csv.requestBytes / MB, unit: "MB" },
      { metric: "  peak RSS", value: csv.peakRssBytes / MB, unit: "MB" },
    ];
    return {
      name: "client_prepare",
      value: warm(scan) / 1000,
      unit: "s",
      description: `client-side time of ml-diagnose analyse --dry-run (detect, scan the checkpoint here, build and validate the request) on a generated ${round(generated.bytes / GB)} GB safetensors file, median of ${repeats - 1} runs after the first; the metrics.csv row alongside`,
      note: "Process start (tsx) is not included: see the startup benchmark. The request for a metrics CSV carries the file as text, so its size is the file's.",
      rows,
      detail: { checkpoint: { bytes: generated.bytes, tensors: generated.tensors, ...scan }, csv: { rows: csvRows, bytes: csvBytes, ...csv } },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
