import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectRun } from "../../client/detect/detect-run.js";
import { detectedParts } from "../../client/request/build-request.js";

/** Run-folder detection on committed fixtures and on folders laid out here as the tools lay them out. */

const F = "test/fixtures";
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-detect-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const targets = (run: Awaited<ReturnType<typeof detectRun>>) => Object.fromEntries(run.used.map((u) => [u.source, u.target]));

describe("detectRun", () => {
  it("a Hugging Face Trainer output folder: trainer_state.json as metrics, the newest checkpoint-N/ as a folder with its config", async () => {
    const out = join(tmp, "hf");
    for (const step of ["2", "4"]) {
      await mkdir(join(out, `checkpoint-${step}`), { recursive: true });
      for (const f of ["config.json", "model.safetensors", "trainer_state.json"]) {
        await copyFile(`${F}/checkpoint/folders/hf-trainer/checkpoint-4/${f}`, join(out, `checkpoint-${step}`, f));
      }
    }
    const run = await detectRun([out]);
    expect(run.metrics).toMatchObject({ format: "hf_trainer_state", content: { log_history: expect.any(Array) } });
    expect(targets(run)[join(out, "checkpoint-4/trainer_state.json")]).toBe("training_artifacts.metrics");
    expect(run.checkpoint?.path).toBe(join(out, "checkpoint-4"));
    expect(run.checkpoint?.files?.map((f) => f.relative).sort()).toEqual(["config.json", "model.safetensors", "trainer_state.json"]);
    const older = run.skipped.filter((s) => s.source.includes("checkpoint-2"));
    expect(older.map((s) => s.problem)).toEqual([false, false]);
  });

  it("a Lightning checkpoints/ folder with several .ckpt files is one checkpoint folder", async () => {
    const run = await detectRun([`${F}/checkpoint/folders/lightning`]);
    expect(run.checkpoint?.files?.length).toBeGreaterThan(1);
    expect(run.checkpoint?.files?.every((f) => f.relative.endsWith(".ckpt"))).toBe(true);
  });

  it("Keras: a CSVLogger file is keras_csv, a History JSON is sent as its named arrays", async () => {
    const csv = await detectRun([`${F}/training/keras-csvlogger.csv`]);
    expect(csv.metrics).toMatchObject({ format: "keras_csv", content: expect.stringMatching(/^epoch,/) });
    const history = await detectRun([`${F}/training/keras-history.json`]);
    expect(Object.keys(history.metrics as object)).toEqual(expect.arrayContaining(["loss", "val_loss"]));
  });

  it("by content, not by name: a History JSON saved as .out and a safetensors file named .data", async () => {
    await copyFile(`${F}/training/keras-history.json`, join(tmp, "history.out"));
    await copyFile(`${F}/checkpoint/safetensors/benign-mlp.safetensors`, join(tmp, "weights.data"));
    const run = await detectRun([join(tmp, "history.out"), join(tmp, "weights.data")]);
    expect(Object.keys(run.metrics as object)).toContain("val_loss");
    expect(run.checkpoint?.path).toBe(join(tmp, "weights.data"));
    expect(run.skipped).toEqual([]);
  });

  it("model files of other frameworks are checkpoints by content: a .keras beside a Keras log, ONNX, GGUF and HDF5 under any name", async () => {
    const keras = join(tmp, "keras-run");
    await mkdir(keras, { recursive: true });
    await copyFile(`${F}/training/keras-csvlogger.csv`, join(keras, "training.log.csv"));
    await copyFile(`${F}/checkpoint/modelfiles/keras/lambda.keras`, join(keras, "model.keras"));
    const run = await detectRun([keras]);
    expect(run.checkpoint?.path).toBe(join(keras, "model.keras"));
    expect(run.metrics).toMatchObject({ format: "keras_csv" });
    for (const [file, name] of [["onnx/benign.onnx", "a.model"], ["gguf/benign.gguf", "b.bin"], ["keras/legacy-nan.h5", "c.weights"]]) {
      await copyFile(`${F}/checkpoint/modelfiles/${file}`, join(tmp, name!));
      expect((await detectRun([join(tmp, name!)])).checkpoint?.path).toBe(join(tmp, name!));
    }
  });

  it("a TensorBoard event file is sent as it is; Keras' train/ and validation/ files become named series", async () => {
    const one = await detectRun([`${F}/training/tensorboardx-simple-value.tfevents`]);
    expect(one.metrics).toMatchObject({ format: "tfevents", content_base64: expect.any(String) });
    const logs = join(tmp, "logs");
    await mkdir(join(logs, "train"), { recursive: true });
    await mkdir(join(logs, "validation"), { recursive: true });
    await copyFile(`${F}/training/tensorboardx-simple-value.tfevents`, join(logs, "train", "events.out.tfevents.1.host.0.v2"));
    await copyFile(`${F}/training/tensorboardx-simple-value.tfevents`, join(logs, "validation", "events.out.tfevents.1.host.1.v2"));
    const split = await detectRun([logs]);
    expect(split.metrics).toMatchObject({
      format: "tfevents",
      files: [{ path: "train/events.out.tfevents.1.host.0.v2" }, { path: "validation/events.out.tfevents.1.host.1.v2" }],
    });
  });

  it("an MLflow file-store run: metric files as long rows (Python's nan kept), params, run name and tags", async () => {
    const runDir = join(tmp, "mlruns", "1", "0a1b2c3d");
    await mkdir(join(runDir, "metrics", "val"), { recursive: true });
    await mkdir(join(runDir, "params"), { recursive: true });
    await mkdir(join(runDir, "tags"), { recursive: true });
    await writeFile(join(tmp, "mlruns", "1", "meta.yaml"), "artifact_location: file:///x\nexperiment_id: '1'\nname: demo\n");
    await writeFile(join(runDir, "meta.yaml"), "run_id: 0a1b2c3d\nexperiment_id: '1'\nlifecycle_stage: active\nrun_name: brave-owl\nstart_time: 1764000000000\n");
    await writeFile(join(runDir, "metrics", "train_loss"), "1764000000001 0.9 0\n1764000000002 nan 1\n");
    await writeFile(join(runDir, "metrics", "val", "loss"), "1764000000001 1.1 0\n");
    await writeFile(join(runDir, "params", "lr"), "0.3");
    await writeFile(join(runDir, "tags", "mlflow.runName"), "brave-owl");
    const run = await detectRun([join(tmp, "mlruns")]);
    expect(run.metrics).toEqual([
      { key: "train_loss", value: 0.9, step: 0, timestamp: 1764000000001 },
      { key: "train_loss", value: Number.NaN, step: 1, timestamp: 1764000000002 },
      { key: "val/loss", value: 1.1, step: 0, timestamp: 1764000000001 },
    ]);
    expect(run.params).toEqual({ lr: "0.3" });
    expect(run.metadata.mlflow).toMatchObject({ run_id: "0a1b2c3d", run_name: "brave-owl", experiment_id: "1" });
    expect(run.skipped).toEqual([{ source: expect.stringMatching(/mlruns\/1\/meta\.yaml$/), reason: expect.stringContaining("MLflow metadata of the experiment"), problem: false }]);
  });

  it("Deepchecks (a to_json() string too), Evidently, Great Expectations and TFDV reports all go into checks_artifacts.reports", async () => {
    const run = await detectRun([
      `${F}/real/deepchecks/train-test-validation-leak-shift/suite.json`,
      `${F}/real/deepchecks/label-drift-to-json-string/check.json`,
      `${F}/real/evidently/data-drift-shifted/report.json`,
      `${F}/real/great_expectations/validation-null-labels-critical/validation.json`,
      `${F}/checks/tfdv-anomalies.json`,
    ]);
    const labels = run.used.map((u) => u.label);
    expect(labels).toEqual(["Deepchecks result", "Deepchecks result", "Evidently report", "Great Expectations result", "TFDV anomalies"]);
    const checks = detectedParts(run).parts.find((p) => p.field === "checks_artifacts");
    expect((checks?.payload.reports as unknown[]).length).toBe(5);
  });

  it("names an unreadable or unrecognized file given on the command line as a problem; lists those inside a folder as not sent", async () => {
    const folder = join(tmp, "noise");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "README.md"), "# notes\n");
    await writeFile(join(folder, "broken.json"), "{");
    const run = await detectRun([folder, join(tmp, "noise", "README.md"), join(tmp, "missing.csv")]);
    expect(run.skipped).toEqual([
      { source: join(tmp, "missing.csv"), reason: "no such file or folder", problem: true },
      { source: `${folder}/README.md`, reason: "documentation, not an artifact", problem: false },
      { source: `${folder}/broken.json`, reason: "not valid JSON", problem: true },
      { source: join(folder, "README.md"), reason: "documentation, not an artifact", problem: true },
    ]);
  });
});
