import { spawn } from "node:child_process";
import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WATCH_OPTIONS } from "../../client/cli/watch-options.js";
import { WATCH_HELP } from "../../client/cli/watch-help.js";
import { detectTrainingFindings } from "../../nodes/training/detect.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { runCli } from "../support/client-process.js";
import { startService, type RunningService } from "../support/http-service.js";
import { RUNS_DIR } from "../support/run-folders.js";
import { faultyHistory } from "../support/synthetic-faults.js";
import { healthyHistory } from "../support/synthetic-history.js";
import { replayWatch, type Write } from "../support/watch-replay.js";

let service: RunningService;
let tmp: string;
beforeAll(async () => {
  service = await startService();
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-watch-"));
});
afterAll(async () => {
  await service?.close();
  await rm(tmp, { recursive: true, force: true });
});

const SEVERE = /^\S+ (?:↑ )?(?:HIGH|CRITICAL) /;
let n = 0;
const freshDir = async () => {
  const dir = join(tmp, `run-${n++}`);
  await mkdir(dir, { recursive: true });
  return dir;
};

/**
 * Writes for a text file growing line by line, each write ending halfway through the next line, as a writer
 * that flushes mid-row does: after write k the file holds k complete lines.
 */
function lineWrites(path: string, text: string, linesPerWrite = 1): Write[] {
  const ends: number[] = [];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) ends.push(at + 1);
  const writes: Write[] = [];
  let from = 0;
  for (let i = linesPerWrite - 1; i < ends.length + linesPerWrite - 1; i += linesPerWrite) {
    const lineEnd = ends[Math.min(i, ends.length - 1)]!;
    const nextEnd = ends[Math.min(i, ends.length - 1) + 1];
    const end = nextEnd === undefined ? lineEnd : lineEnd + Math.floor((nextEnd - lineEnd) / 2);
    const chunk = text.slice(from, end);
    from = end;
    writes.push(() => appendFile(path, chunk));
  }
  return writes;
}

/** Writes for an event file copied record by record, every write ending inside the next record. */
function recordWrites(path: string, bytes: Buffer, recordsPerWrite: number): Write[] {
  const ends: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    at += Number(bytes.readBigUInt64LE(at)) + 16;
    ends.push(at);
  }
  const writes: Write[] = [];
  let from = 0;
  for (let i = recordsPerWrite - 1; i < ends.length + recordsPerWrite - 1; i += recordsPerWrite) {
    const last = i >= ends.length - 1;
    const end = last ? bytes.length : ends[i]! + 5;
    const chunk = bytes.subarray(from, end);
    from = end;
    writes.push(() => appendFile(path, chunk));
  }
  return writes;
}

const args = (dir: string, extra: string[] = []) => [dir, "--server", service.url, "--interval", "3", "--idle", "5", "--retries", "0", ...extra];

/** The 1-based number of the first analysis that had seen `writes` writes. */
const firstCovering = (analysesAt: number[], writes: number) => analysesAt.findIndex((w) => w >= writes) + 1;

describe("ml-diagnose watch", () => {
  it("documents every flag in its help", () => {
    for (const flag of Object.keys(WATCH_OPTIONS)) expect(WATCH_HELP).toContain(`--${flag}`);
  });

  it("is a command of the real launcher: help, and usage errors with exit 2", async () => {
    const help = await runCli(["watch", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(WATCH_HELP);
    expect((await runCli(["--help"])).stdout).toContain("watch <folder>");
    const noPid = await runCli(["watch", tmp, "--signal-pid", "123"]);
    expect(noPid.code).toBe(2);
    expect(noPid.stderr).toContain("--signal-pid goes with --stop-on");
    const notFolder = await runCli(["watch", join(tmp, "missing"), "--server", service.url]);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toContain("not a folder");
  });

  it("reports a real Lightning run's exploding loss within two analyses of its row, signals the training and exits 1 (--stop-on)", async () => {
    const dir = await freshDir();
    const source = join(RUNS_DIR, "lightning-csv-sgd-nan/lightning_logs/version_0");
    await mkdir(join(dir, "lightning_logs/version_0"), { recursive: true });
    await copyFile(join(source, "hparams.yaml"), join(dir, "lightning_logs/version_0/hparams.yaml"));
    const text = await readFile(join(source, "metrics.csv"), "utf8");
    const lines = text.split("\n");
    const header = lines[0]!.split(",");
    const bad = lines.findIndex((l, i) => i > 0 && header.some((h, c) => /loss/.test(h) && l.split(",")[c] !== "" && l.split(",")[c] !== undefined && !(Math.abs(Number(l.split(",")[c])) < 1e5)));
    // The training process: it reports the SIGINT it receives, as Lightning would stop on it.
    const training = spawn(process.execPath, ["-e", "process.on('SIGINT', () => { console.log('SIGINT'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000);"], { stdio: ["ignore", "pipe", "inherit"] });
    let said = "";
    training.stdout.on("data", (c: Buffer) => (said += c.toString()));
    await new Promise<void>((resolve) => training.stdout.once("data", () => resolve()));
    const exited = new Promise<number | null>((resolve) => training.on("exit", resolve));
    const trace = await replayWatch(args(dir, ["--stop-on", "critical", "--signal-pid", String(training.pid)]), lineWrites(join(dir, "lightning_logs/version_0/metrics.csv"), text));
    expect(trace.code, trace.stderr).toBe(1);
    const alarm = trace.printed.find((p) => p.line.includes("[training.nonfinite_loss]"));
    expect(alarm?.line).toMatch(/CRITICAL/);
    expect(alarm!.analysis).toBeLessThanOrEqual(firstCovering(trace.analysesAt, bad + 1) + 1);
    expect(await exited).toBe(0);
    expect(said).toContain("SIGINT");
    expect(trace.stderr).toContain(`sent SIGINT to process ${training.pid}`);
  });

  it("reports a synthetic divergence within two analyses of the step it becomes conclusive, and runs --on-finding with the finding", async () => {
    const dir = await freshDir();
    const artifact = faultyHistory(4242, "divergence", 0.8);
    const csv = historyCsv(artifact.metrics as Record<string, Array<{ step: number; value: number }>>);
    const run = parseTrainingArtifact({ metrics: { format: "csv", content: csv } });
    const conclusive = detectTrainingFindings(run).find((f) => f.id === "training.divergence")!.evidence[0]!.detected_at_step!;
    const rows = csv.trim().split("\n");
    const line = rows.findIndex((r, i) => i > 0 && Number(r.split(",")[0]) >= conclusive);
    const hook = join(dir, "..", `hook-${n}.jsonl`);
    const per = Math.ceil(rows.length / 60);
    const trace = await replayWatch(args(dir, ["--on-finding", `cat >> '${hook}'`]), lineWrites(join(dir, "history.csv"), csv, per));
    expect(trace.code, trace.stderr).toBe(0);
    const alarm = trace.printed.find((p) => p.line.includes("[training.divergence]"));
    expect(alarm, trace.stdout).toBeDefined();
    expect(alarm!.analysis).toBeLessThanOrEqual(firstCovering(trace.analysesAt, Math.ceil((line + 1) / per)) + 1);
    const hooked = (await readFile(hook, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { run: string; finding: { id: string; evidence: Array<{ detected_at_step: number }> } });
    const divergence = hooked.find((h) => h.finding.id === "training.divergence")!;
    expect(divergence.run).toBe(dir);
    expect(divergence.finding.evidence[0]!.detected_at_step).toBeGreaterThanOrEqual(conclusive);
    // Printed once: later analyses repeat it only if it grows more severe.
    expect(trace.printed.filter((p) => p.line.includes("[training.divergence]")).length).toBeLessThanOrEqual(2);
  });

  it.each([
    ["lightning-csv-healthy", "lightning_logs/version_0/metrics.csv"],
    ["keras-healthy", "training.csv"],
  ])("stays quiet on the real healthy run %s replayed row by row (no high or critical finding at any analysis)", async (name, file) => {
    const dir = await freshDir();
    await mkdir(join(dir, dirname(file)), { recursive: true });
    const hparams = join(RUNS_DIR, name, dirname(file), "hparams.yaml");
    await copyFile(hparams, join(dir, dirname(file), "hparams.yaml")).catch(() => undefined);
    const text = await readFile(join(RUNS_DIR, name, file), "utf8");
    const trace = await replayWatch(args(dir), lineWrites(join(dir, file), text, 2));
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.analysesAt.length).toBeGreaterThanOrEqual(3);
    expect(trace.printed.filter((p) => SEVERE.test(p.line)).map((p) => p.line)).toEqual([]);
  });

  it("follows a TensorBoard event file written record by record, waiting out half-written records", async () => {
    const dir = await freshDir();
    const rel = "runs/exp1/events.out.tfevents.1795593186.vm.28385.2";
    await mkdir(join(dir, dirname(rel)), { recursive: true });
    const bytes = await readFile(join(RUNS_DIR, "tensorboard-healthy", rel));
    const trace = await replayWatch(args(dir), recordWrites(join(dir, rel), bytes, 40));
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stderr).toContain("following TensorBoard event files in runs/exp1/");
    expect(trace.analysesAt.length).toBeGreaterThanOrEqual(3);
    expect(trace.printed.filter((p) => SEVERE.test(p.line))).toEqual([]);
  });

  it("follows Keras' train/ and validation/ event files of one run together", async () => {
    const dir = await freshDir();
    const source = join(RUNS_DIR, "keras-healthy/logs");
    const writes: Write[][] = [];
    for (const split of ["train", "validation"]) {
      const [name] = (await readdir(join(source, split))).filter((f) => f.startsWith("events.out.tfevents."));
      await mkdir(join(dir, "logs", split), { recursive: true });
      writes.push(recordWrites(join(dir, "logs", split, name!), await readFile(join(source, split, name!)), 3));
    }
    // Both files grow at once, as Keras writes them: one chunk of each per tick.
    const interleaved = Array.from({ length: Math.max(...writes.map((w) => w.length)) }, (_, i): Write => async () => {
      for (const w of writes) await w[i]?.();
    });
    const trace = await replayWatch(args(dir), interleaved);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stderr).toContain("following TensorBoard event files in logs/");
    expect(trace.analysesAt.length).toBeGreaterThanOrEqual(2);
    expect(trace.printed.filter((p) => SEVERE.test(p.line))).toEqual([]);
  });

  it("follows an MLflow file-store run and ends when its meta.yaml says FINISHED", async () => {
    const dir = await freshDir();
    const source = join(RUNS_DIR, "mlflow-healthy/mlruns/601005287335152268/20a885f555884edeadf8d0200fbe95fd");
    const runDir = join(dir, "mlruns/1/run1");
    await mkdir(join(runDir, "metrics"), { recursive: true });
    await mkdir(join(runDir, "params"), { recursive: true });
    for (const p of await readdir(join(source, "params"))) await copyFile(join(source, "params", p), join(runDir, "params", p));
    const meta = await readFile(join(source, "meta.yaml"), "utf8");
    await writeFile(join(runDir, "meta.yaml"), meta.replace(/^status:.*$/m, "status: 1").replace(/^end_time:.*$/m, "end_time: null"));
    const metrics = await readdir(join(source, "metrics"));
    const series = await Promise.all(metrics.map(async (m) => (await readFile(join(source, "metrics", m), "utf8")).trim().split("\n")));
    const writes: Write[] = [];
    for (let i = 0; i < Math.max(...series.map((s) => s.length)); i += 10) {
      writes.push(async () => {
        for (const [k, m] of metrics.entries()) {
          const chunk = series[k]!.slice(i, i + 10);
          if (chunk.length > 0) await appendFile(join(runDir, "metrics", m), `${chunk.join("\n")}\n`);
        }
      });
    }
    writes.push(() => writeFile(join(runDir, "meta.yaml"), meta.replace(/^status:.*$/m, "status: 3")));
    const trace = await replayWatch([...args(dir), "--idle", "600"], writes);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stderr).toContain("end marker");
    expect(trace.printed.filter((p) => SEVERE.test(p.line))).toEqual([]);
  });

  it("re-reads a Trainer's trainer_state.json only when a save rewrites it, and ends at train_results.json", async () => {
    const dir = await freshDir();
    const state = JSON.parse(await readFile(join(RUNS_DIR, "hf-trainer-healthy/trainer_state.json"), "utf8")) as { log_history: unknown[] };
    const writes: Write[] = [];
    for (let k = 10; k < state.log_history.length + 10; k += 10) {
      const text = JSON.stringify({ ...state, log_history: state.log_history.slice(0, k) });
      // A save half-written, then complete: the half never counts as a parse error.
      writes.push(() => writeFile(join(dir, "trainer_state.json"), text.slice(0, text.length >> 1)));
      writes.push(() => writeFile(join(dir, "trainer_state.json"), text));
    }
    writes.push(() => writeFile(join(dir, "train_results.json"), "{}"));
    const trace = await replayWatch([...args(dir), "--idle", "600"], writes);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stderr).toContain("end marker");
    expect(trace.printed.filter((p) => SEVERE.test(p.line))).toEqual([]);
  });

  it("waits for a folder that never gets a log file, then says so (exit 2)", async () => {
    const dir = await freshDir();
    const trace = await replayWatch(args(dir), []);
    expect(trace.code).toBe(2);
    expect(trace.stderr).toMatch(/no metrics appeared in .* within --idle 5 s/);
  });

  it("stays quiet on running prefixes of longer synthetic healthy runs (slow start, cyclic schedule)", async () => {
    for (const kind of ["cyclic_lr", "plateau_then_drop"] as const) {
      const dir = await freshDir();
      const csv = historyCsv(healthyHistory(7, kind).metrics as Record<string, Array<{ step: number; value: number }>>);
      const per = Math.ceil(csv.split("\n").length / 40);
      const trace = await replayWatch(args(dir), lineWrites(join(dir, "history.csv"), csv, per));
      expect(trace.code, trace.stderr).toBe(0);
      expect(trace.printed.filter((p) => SEVERE.test(p.line)).map((p) => `${kind}: ${p.line}`)).toEqual([]);
    }
  });
});

/** A synthetic history as the CSV a logger would write: one row per step, empty cells where a metric was not logged. */
function historyCsv(metrics: Record<string, Array<{ step: number; value: number }>>): string {
  const names = Object.keys(metrics);
  const rows = new Map<number, Map<string, number>>();
  for (const [name, points] of Object.entries(metrics)) for (const p of points) (rows.get(p.step) ?? rows.set(p.step, new Map()).get(p.step)!).set(name, p.value);
  const steps = [...rows.keys()].sort((a, b) => a - b);
  return `${["step", ...names].join(",")}\n${steps.map((s) => [s, ...names.map((k) => rows.get(s)!.get(k) ?? "")].join(",")).join("\n")}\n`;
}
