import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNIQUE_ESTIMATE_RELATIVE_ERROR } from "../../../client/dataset/distinct.js";
import { QUANTILE_ESTIMATE_RANK_ERROR } from "../../../client/dataset/numeric.js";
import type { DatasetStatistics } from "../../../client/dataset/index.js";
import { EXIT } from "../../../client/exit-codes.js";
import { main } from "../../../client/main.js";
import { expectClose, type PandasReference, sameTop } from "../../support/pandas-reference.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** Made by scripts/setup-pandas.sh, which npm test runs before the tiers. */
const PYTHON = join(ROOT, ".cache/venv-pandas/bin/python");
const CHECK = join(ROOT, "scripts/pandas/dataset_check.py");

async function python(args: string[]): Promise<unknown> {
  const { stdout } = await run(PYTHON, [CHECK, ...args], { cwd: ROOT, timeout: 240_000, maxBuffer: 64 << 20, env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" } });
  return JSON.parse(stdout);
}

/** What `ml-diagnose analyse --data … --test … --dry-run` would send: the statistics the client computed. */
async function clientStatistics(train: string, test: string | null, target?: string): Promise<DatasetStatistics> {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} };
  const code = await main(["analyse", "--data", train, ...(test ? ["--test", test] : []), ...(target ? ["--target", target] : []), "--dry-run", "--quiet"], io);
  expect(code, stderr).toBe(EXIT.ok);
  return (JSON.parse(stdout) as { dataset_artifacts: { statistics: DatasetStatistics } }).dataset_artifacts.statistics;
}

function compareColumns(got: DatasetStatistics, want: PandasReference): void {
  expect(Object.keys(got.columns)).toEqual(Object.keys(want.columns));
  for (const [name, w] of Object.entries(want.columns)) {
    const g = got.columns[name]!;
    expect({ count: g.count, missing: g.missing }, name).toEqual({ count: w.count, missing: w.missing });
    if (g.unique_estimated) {
      expect(Math.abs(g.unique - w.unique) / w.unique, `${name}.unique ${g.unique} vs pandas ${w.unique}`).toBeLessThanOrEqual(UNIQUE_ESTIMATE_RELATIVE_ERROR);
    } else {
      expect({ unique: g.unique, top_frequency: g.top_frequency }, name).toEqual({ unique: w.unique, top_frequency: w.top_frequency });
      expect(sameTop(g.top, w.top), `${name} top ${g.top} vs pandas ${String(w.top)}`).toBe(true);
    }
    if (w.mean === undefined) {
      expect([g.mean, g.std, g.p25, g.p50, g.p75], name).toEqual([null, null, null, null, null]);
      continue;
    }
    for (const key of ["mean", "std", "min", "max"] as const) expectClose(g[key], w[key]!, `${name}.${key}`);
    const quartiles = [g.p25, g.p50, g.p75];
    if (g.quartiles_estimated) {
      // The documented bound: each estimate lies between pandas' quantiles at q − ε and q + ε.
      w.quartile_bounds!.forEach(([lo, hi], i) => {
        expect(quartiles[i], `${name} quartile ${i + 1}`).toBeGreaterThanOrEqual(lo);
        expect(quartiles[i], `${name} quartile ${i + 1}`).toBeLessThanOrEqual(hi);
      });
    } else {
      quartiles.forEach((q, i) => expectClose(q, [w.p25, w.p50, w.p75][i]!, `${name} quartile ${i + 1}`));
    }
  }
}

function compareRows(got: DatasetStatistics, want: PandasReference): void {
  expect(got.splits).toEqual(Object.fromEntries(Object.entries(want.splits).map(([k, n]) => [k, { num_rows: n }])));
  expect(got.duplicates.count).toBe(want.duplicates.count);
  expectClose(got.duplicates.fraction, want.duplicates.fraction, "duplicates.fraction");
  expect(got.train_test_overlap?.count).toBe(want.train_test_overlap?.count);
  if (want.train_test_overlap) expectClose(got.train_test_overlap?.fraction, want.train_test_overlap.fraction, "train_test_overlap.fraction");
}

function compareDrift(got: DatasetStatistics, want: PandasReference): void {
  expect(Object.keys(got.drift ?? {}).sort()).toEqual(Object.keys(want.drift ?? {}).sort());
  for (const [name, w] of Object.entries(want.drift ?? {})) {
    const g = got.drift![name]! as Record<string, number | string>;
    expect(g.kind, name).toBe(w.kind);
    for (const [key, v] of Object.entries(w)) if (typeof v === "number") expectClose(g[key] as number, v, `drift.${name}.${key}`);
  }
}

let dir = "";
let files: string[] = [];
beforeAll(async () => {
  if (!existsSync(PYTHON)) throw new Error("pandas is not installed: run bash scripts/setup-pandas.sh (npm test runs it)");
  dir = await mkdtemp(join(tmpdir(), "pandas-dataset-"));
  files = ((await python(["write", dir])) as { files: string[] }).files;
}, 300_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const pair = (pattern: string) => [join(dir, pattern.replace("%s", "train")), join(dir, pattern.replace("%s", "test"))] as const;

describe.each(["csv", "tsv", "parquet", "jsonl", "csv.gz", "tsv.gz", "jsonl.gz"])("ml-diagnose statistics of edge-case %s files agree with pandas", (format) => {
  let got: DatasetStatistics;
  let want: PandasReference;
  beforeAll(async () => {
    const [train, test] = pair(`edge-%s.${format}`);
    expect(files).toContain(`edge-%s.${format}`);
    [got, want] = await Promise.all([clientStatistics(train, test, "label"), python(["stats", train, test, "--target", "label"]) as Promise<PandasReference>]);
  }, 240_000);

  it("counts, missing, unique, top, mean, std, min, max and quartiles per column, all exact", () => {
    expect(Object.values(got.columns).some((c) => c.unique_estimated || c.quartiles_estimated)).toBe(false);
    compareColumns(got, want);
  });

  it("rows per split, class counts, duplicates (missing equal to missing) and the overlap on the shared columns", () => {
    compareRows(got, want);
    expect(got.class_distribution).toEqual(want.class_distribution);
  });

  it("PSI and KS per numeric column, PSI and total variation per categorical one", () => compareDrift(got, want));
});

describe("ml-diagnose statistics of a file above the exact bounds agree with pandas within the documented bounds", () => {
  let got: DatasetStatistics;
  let want: PandasReference;
  beforeAll(async () => {
    const file = join(dir, "large.parquet");
    expect(files).toContain("large.parquet");
    [got, want] = await Promise.all([clientStatistics(file, null), python(["stats", file, "--rank-error", String(QUANTILE_ESTIMATE_RANK_ERROR)]) as Promise<PandasReference>]);
  }, 240_000);

  it("estimates the distinct keys and the quartiles of the near-unique numeric column, says so, and keeps the rest exact", () => {
    expect(got.columns.key?.unique_estimated).toBe(true);
    expect(got.columns.x?.quartiles_estimated).toBe(true);
    expect(Object.entries(got.columns).filter(([, c]) => c.unique_estimated || c.quartiles_estimated).map(([n]) => n)).toEqual(["key", "x"]);
    compareColumns(got, want);
  });

  it("keeps the duplicate count exact", () => compareRows(got, want));
});
