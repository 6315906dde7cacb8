import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectRun } from "../../client/detect/detect-run.js";

/** Run folders of printed logs, JSON lines and boosting files, laid out as the libraries left them (test/fixtures/real/textlogs). */

const T = "test/fixtures/real/textlogs";
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-textlogs-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("detectRun on text logs", () => {
  it("a Keras run: history.csv as metrics, the printed log as logs, model.keras as the checkpoint", async () => {
    const dir = join(tmp, "keras");
    await cp(`${T}/runs/keras-healthy`, dir, { recursive: true });
    await copyFile(`${T}/logs/keras-fit-verbose1.log`, join(dir, "train.log"));
    const run = await detectRun([dir]);
    expect(run.metrics).toMatchObject({ format: "keras_csv" });
    expect(run.logs.length).toBeGreaterThan(15);
    expect(run.used.map((u) => u.target).sort()).toEqual(["model_checkpoint_artifacts", "training_artifacts.logs", "training_artifacts.metrics"]);
    expect(run.used.find((u) => u.target === "model_checkpoint_artifacts")?.source).toBe(`${dir}/model.keras`);
    expect(run.skipped).toEqual([]);
  });

  it("printed output under any name (nohup.out) is sent as logs when a line of it prints metrics", async () => {
    const dir = join(tmp, "nohup");
    await mkdir(dir);
    await copyFile(`${T}/logs/keras-fit-verbose2.log`, join(dir, "nohup.out"));
    const run = await detectRun([dir]);
    expect(run.metrics).toBeUndefined();
    expect(run.used).toEqual([{ source: `${dir}/nohup.out`, target: "training_artifacts.logs", label: "log lines" }]);
  });

  it("CatBoost's catboost_info: the two error files as one history, time_left.tsv listed as not sent", async () => {
    const dir = join(tmp, "catboost");
    await cp(`${T}/boosting/catboost-overfit`, dir, { recursive: true });
    const run = await detectRun([dir]);
    expect(run.metrics).toMatchObject({ format: "catboost_tsv", files: [{ path: "learn_error.tsv" }, { path: "test_error.tsv" }] });
    expect(run.skipped).toEqual([{ source: `${dir}/catboost_info/time_left.tsv`, reason: expect.stringContaining("timings, not metrics"), problem: false }]);
  });

  it("an evals_result() JSON is sent as the boosting history it is", async () => {
    const run = await detectRun([`${T}/boosting/lightgbm-overfit.evals_result.json`]);
    expect(Object.keys(run.metrics as object)).toEqual(["training", "valid"]);
    expect(run.used[0]!.label).toBe("boosting evals_result() history");
  });

  it("a JSON-lines log is sent as jsonl, by name and by content", async () => {
    const named = await detectRun([`${T}/jsonl/diverges.log.jsonl`]);
    expect(named.metrics).toMatchObject({ format: "jsonl", content: expect.stringContaining("NaN") });
    const dir = join(tmp, "jsonl");
    await mkdir(dir);
    await copyFile(`${T}/jsonl/healthy.metrics.jsonl`, join(dir, "metrics.txt"));
    expect((await detectRun([dir])).metrics).toMatchObject({ format: "jsonl" });
  });
});

describe("what is not a training log", () => {
  it("a text file with one metric-like pair (a config saved as .txt) is listed as not sent", async () => {
    const dir = join(tmp, "notes");
    await mkdir(dir);
    await writeFile(join(dir, "notes.md"), "We tried lr: 0.001 first.\n");
    const run = await detectRun([dir]);
    expect(run.logs).toEqual([]);
    expect(run.skipped).toEqual([{ source: `${dir}/notes.md`, reason: expect.stringContaining("not a format ml-diagnose reads"), problem: false }]);
  });
});
