import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/http-service.js";
import { builtCli } from "../support/built.js";

/**
 * Run folders that are only partly there, given to the real `ml-diagnose` process against the real service: a
 * subfolder this user may not read, and a real TensorBoard event file cut in half.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const RUNS = join(ROOT, "test/fixtures/real/runs");
/** root reads any folder whatever its mode: as root, the client runs as `nobody`, for whom a mode-000 folder is locked. */
const NOBODY = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

let svc: RunningService;
let tmp: string;
beforeAll(async () => {
  svc = await startService();
  // Under the checkout, not the test run's private temporary folder: `nobody` must be able to reach it.
  await mkdir(join(ROOT, ".cache"), { recursive: true });
  tmp = await mkdtemp(join(ROOT, ".cache", "partial-folders-"));
  await chmod(tmp, 0o755);
});
afterAll(async () => {
  await svc?.close();
  await rm(tmp, { recursive: true, force: true });
});

async function analyse(folder: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [builtCli(), "analyse", folder, "--format", "json"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: tmp, ML_DIAGNOSE_SERVER: svc.url },
    ...NOBODY,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

const findingIds = (stdout: string) => Object.values((JSON.parse(stdout) as { agent_results: Record<string, { findings: Array<{ id: string; severity: string }> }> }).agent_results).flatMap((r) => r.findings);

describe("partial run folders", { timeout: 120_000 }, () => {
  it("a subfolder that cannot be read is named and skipped; the readable metrics.csv beside it is analysed", async () => {
    const run = join(tmp, "locked-run");
    const logs = join(run, "lightning_logs/version_0");
    await mkdir(logs, { recursive: true });
    await copyFile(join(RUNS, "lightning-csv-healthy/lightning_logs/version_0/metrics.csv"), join(logs, "metrics.csv"));
    await mkdir(join(run, "private"));
    await writeFile(join(run, "private/notes.txt"), "secret");
    await chmod(join(run, "private"), 0o000);
    await chmod(tmp, 0o755);
    for (const d of [run, join(run, "lightning_logs"), logs]) await chmod(d, 0o755);
    try {
      const r = await analyse(run);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`! ${run}/private/: skipped: permission denied; the rest of ${run} is analysed`);
      expect(r.stderr).toContain(`+ ${run}/lightning_logs/version_0/metrics.csv → training_artifacts.metrics (Lightning CSVLogger metrics)`);
      // The training curves were analysed: the service ran its training agent on them.
      expect(Object.keys((JSON.parse(r.stdout) as { agent_results: object }).agent_results).some((k) => /training/i.test(k))).toBe(true);
    } finally {
      await chmod(join(run, "private"), 0o755);
    }
  });

  it("a real TensorBoard event file cut in half is analysed up to the cut and flagged as cut off", async () => {
    const run = join(tmp, "cut-run");
    await mkdir(join(run, "runs/exp1"), { recursive: true });
    await chmod(join(run), 0o755);
    await chmod(join(run, "runs"), 0o755);
    await chmod(join(run, "runs/exp1"), 0o755);
    const events = await readFile(join(RUNS, "tensorboard-healthy/runs/exp1/events.out.tfevents.1795593186.vm.28385.2"));
    await writeFile(join(run, "runs/exp1/events.out.tfevents.1795593186.vm.28385.2"), events.subarray(0, Math.floor(events.length / 2)));
    const r = await analyse(run);
    expect(r.code, r.stderr).toBe(0);
    expect(findingIds(r.stdout)).toContainEqual(expect.objectContaining({ id: "training.truncated_log", severity: "medium" }));
    const whole = await analyse(join(RUNS, "tensorboard-healthy"));
    expect(findingIds(whole.stdout).map((f) => f.id)).not.toContain("training.truncated_log");
  });
});
