import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompareResponseSchema } from "../../domain/result.js";
import { type CliRun, runCli } from "../support/client-process.js";
import { type RunningService, startService } from "../support/http-service.js";
import { type RunSpec, syntheticRun } from "../support/synthetic-sweep.js";

/** The real `ml-diagnose compare` process against the real service, on run folders written as Lightning's CSVLogger writes them. */

let svc: RunningService;
let tmp: string;
const cli = (args: string[]): Promise<CliRun> => runCli(args, { ML_DIAGNOSE_SERVER: svc.url });

/** A Lightning CSVLogger folder (metrics.csv + hparams.yaml) holding one synthetic run. */
async function runFolder(spec: RunSpec): Promise<string> {
  const run = syntheticRun(spec);
  const dir = join(tmp, spec.name);
  await mkdir(dir, { recursive: true });
  const { val_loss: val, train_loss: train } = run.training_artifacts.metrics;
  const rows = val.map((v, epoch) => `${epoch},${(epoch + 1) * 100 - 1},${train[epoch]},${v}`);
  await writeFile(join(dir, "metrics.csv"), `epoch,step,train_loss,val_loss\n${rows.join("\n")}\n`);
  await writeFile(join(dir, "hparams.yaml"), Object.entries(run.params).map(([k, v]) => `${k}: ${v}`).join("\n") + "\n");
  return dir;
}

const group = (prefix: string, change: string, level: number, firstSeed: number) =>
  Promise.all([0, 1, 2].map((i) => runFolder({ name: `${prefix}-s${i + 1}`, params: { change }, level, seed: firstSeed + i })));

let main: string[];
let worse: string[];
let same: string[];

beforeAll(async () => {
  svc = await startService();
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-compare-"));
  main = await group("main", "main", 0.5, 1);
  worse = await group("pr", "pr", 0.56, 11);
  same = await group("copy", "copy", 0.5, 1);
});
afterAll(async () => {
  await svc?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("ml-diagnose compare", { timeout: 120_000 }, () => {
  it("--fail-on-regression: exit 1 when the runs regress against the baseline folder, with the verdict on stdout", async () => {
    const r = await cli(["compare", ...main.slice(1), ...worse, "--baseline", main[0]!, "--fail-on-regression"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^Comparison of 6 runs on val\/loss \(minimize\)/);
    expect(r.stdout).toContain(`Regression against the baseline ${main[0]}:`);
    expect(r.stdout).toMatch(/HIGH +Worse than the baseline .* beyond seed noise \[experiment\.regression\]/);
    expect(r.stderr).toContain(`gate failed: 3 runs regress against the baseline ${main[0]} (--fail-on-regression)`);
    expect(r.stderr).toContain(`+ ${join(worse[0]!, "metrics.csv")} → training_artifacts.metrics`);
  });

  it("exit 0 when the candidate runs are identical to the baseline's by construction", async () => {
    const r = await cli(["compare", ...main.slice(1), ...same, "--baseline", main[0]!, "--fail-on-regression", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`No regression against the baseline ${main[0]} beyond seed noise.`);
  });

  it("json: the service's comparison as it came; markdown for a CI summary", async () => {
    const json = await cli(["compare", ...main, "--format", "json", "-q"]);
    expect(json.code, json.stderr).toBe(0);
    const body = CompareResponseSchema.parse(JSON.parse(json.stdout));
    expect(body.runs.map((r) => r.name)).toEqual(main);
    const md = await cli(["compare", ...main, ...worse, "--baseline", main[0]!, "--format", "markdown", "-q"]);
    expect(md.stdout).toMatch(/^## Comparison of 6 runs/);
    expect(md.stdout).toContain("| high | Worse than the baseline");
  });

  it("sends 20 runs or more as a job and follows it, with the same rendering", async () => {
    const more = (await Promise.all([group("a", "a", 0.5, 21), group("b", "b", 0.52, 31), group("c", "c", 0.54, 41), group("d", "d", 0.56, 51)])).flat();
    const folders = [...main, ...worse, ...same, ...more];
    const r = await cli(["compare", ...folders, "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/21 runs: submitted as job [0-9a-f-]{36}/);
    expect(r.stderr).toContain("runs analysed: 21/21");
    expect(CompareResponseSchema.parse(JSON.parse(r.stdout)).runs).toHaveLength(21);
    expect(svc.logs.some((l) => l.includes('"msg":"job queued"'))).toBe(true);
  });

  it("refuses flags that cannot work together, with exit 2", async () => {
    const r = await cli(["compare", ...main, "--fail-on-regression"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--fail-on-regression needs --baseline");
    const typo = await cli(["compare", ...main, "--basline", main[0]!]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("did you mean --baseline?");
  });
});
