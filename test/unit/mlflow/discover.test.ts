import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyFiles, roleOf } from "../../../artifacts/mlflow/discover.js";
import { parseStructured } from "../../../artifacts/mlflow/documents.js";
import { sniffDocument } from "../../../artifacts/mlflow/sniff.js";

const fixture = (rel: string) => readFileSync(new URL(`../../fixtures/${rel}`, import.meta.url), "utf8");
const files = (...paths: string[]) => paths.map((path) => ({ path, is_dir: false, file_size: 10 }));

describe("roles by path", () => {
  it.each([
    ["outputs/trainer_state.json", "trainer_state"],
    ["lightning_logs/version_3/metrics.csv", "metrics_csv"],
    ["history.csv", "metrics_csv"],
    ["predictions.csv", null],
    ["tb/train/events.out.tfevents.1700000000.host.1.v2", "tfevents"],
    ["lightning_logs/version_3/hparams.yaml", "hparams"],
    ["training_artifacts/params.yaml", "hparams"],
    ["training.log", "log"],
    ["logs/stdout.txt", "log"],
    ["reports/drift.json", "document"],
    ["deepchecks/deepchecks.yaml", "document"],
    ["model/MLmodel", "mlmodel"],
    ["best_checkpoint/model.ckpt", "checkpoint"],
    ["weights/model-00001-of-00002.safetensors", "checkpoint"],
    ["checkpoint-500/pytorch_model.bin", "checkpoint"],
    ["checkpoint-500/optimizer.pt", null],
    ["checkpoint-500/rng_state_0.pth", null],
    ["checkpoint-500/training_args.bin", null],
    ["model/conda.yaml", null],
    ["tokenizer.json", null],
    ["model/python_model.pkl", null],
  ])("%s → %s", (path, role) => {
    expect(roleOf(path)).toBe(role);
  });

  it("keeps only weights, MLmodel and sidecars inside a model directory, and tells sidecars from documents", () => {
    const listed = classifyFiles(
      files(
        "model/MLmodel",
        "model/conda.yaml",
        "model/input_example.json",
        "model/artifacts/model.safetensors",
        "model/artifacts/model.safetensors.json",
        "model/artifacts/config.json",
        "ckpt/epoch=3/epoch=3.ckpt",
        "ckpt/epoch=3/metadata.yaml",
        "ckpt/epoch=3/aliases.txt",
        "config.json",
        "report.json",
      ),
    );
    expect(listed.map((f) => [f.file.path, f.role])).toEqual([
      ["ckpt/epoch=3/aliases.txt", "checkpoint_sidecar"],
      ["ckpt/epoch=3/epoch=3.ckpt", "checkpoint"],
      ["ckpt/epoch=3/metadata.yaml", "checkpoint_sidecar"],
      ["config.json", "document"],
      ["model/artifacts/config.json", "checkpoint_sidecar"],
      ["model/artifacts/model.safetensors", "checkpoint"],
      ["model/artifacts/model.safetensors.json", "checkpoint_sidecar"],
      ["model/MLmodel", "mlmodel"],
      ["report.json", "document"],
    ]);
  });
});

describe("sniffing documents by content", () => {
  const sniff = (path: string, text: string) => sniffDocument(path, parseStructured(path, text));

  it("recognizes the check reports the real tools wrote", () => {
    expect(sniff("a.json", fixture("checks/deepchecks-train-test-validation-suite.json"))).toEqual({ kind: "checks", as: "report" });
    expect(sniff("a.json", fixture("checks/evidently-07-drift-snapshot.json"))).toEqual({ kind: "checks", as: "report" });
    expect(sniff("a.json", fixture("checks/evidently-legacy-drift-report.json"))).toEqual({ kind: "checks", as: "report" });
    expect(sniff("a.json", fixture("checks/great-expectations-1x-validation.json"))).toEqual({ kind: "checks", as: "report" });
    expect(sniff("a.json", fixture("checks/great-expectations-018-validation.json"))).toEqual({ kind: "checks", as: "report" });
    expect(sniff("a.json", fixture("checks/deepchecks-legacy-suite-map.json"))).toEqual({ kind: "checks", as: "legacy_suite_map" });
    expect(sniff("checks.json", JSON.stringify([{ name: "nulls", status: "fail" }]))).toEqual({ kind: "checks", as: "checks_list" });
  });

  it("recognizes the original Python client's YAML files", () => {
    const legacy = JSON.parse(fixture("samples/legacy-python-client.json"));
    const yaml = (v: unknown) => JSON.stringify(v); // JSON is YAML: the YAML reader must take it.
    expect(sniff("deepchecks/deepchecks.yaml", yaml(legacy.deepchecks_artifacts))).toEqual({ kind: "checks", as: "legacy_suite_map" });
    expect(sniff("dataset/dataset.yaml", "dataset_name: tomato\nstatistics:\n  num_train_samples: 10\n")).toEqual({ kind: "dataset", as: "payload" });
    const legacyTraining = "metrics_values:\n  key: [loss]\n  value: [0.5]\nparams: {lr: '0.1'}\n";
    expect(sniff("training_artifacts/training_artifacts.yaml", legacyTraining)).toEqual({ kind: "training", as: "payload" });
    expect(sniff("exports/metrics.yaml", legacyTraining)).toEqual({ kind: "training", as: "legacy" });
  });

  it("recognizes training histories, dataset statistics and request-field files", () => {
    expect(sniff("keras-history.json", fixture("training/keras-history.json"))?.kind).toBe("training");
    expect(sniff("x.json", JSON.stringify({ log_history: [] }))).toEqual({ kind: "training", as: "trainer_state" });
    expect(sniff("x.json", JSON.stringify([{ epoch: 0, loss: 1 }]))).toEqual({ kind: "training", as: "rows" });
    expect(sniff("x.json", JSON.stringify({ num_rows: 5, columns: {} }))).toEqual({ kind: "dataset", as: "statistics" });
    expect(sniff("x.json", JSON.stringify({ name: "d", digest: "ab12", source_type: "local", source: "{}" }))).toEqual({ kind: "dataset", as: "mlflow_dataset" });
    expect(sniff("dataset_artifacts.json", JSON.stringify({ metadata: { task: "x" } }))).toEqual({ kind: "dataset", as: "payload" });
    expect(sniff("model_checkpoint_artifacts.json", JSON.stringify({ metadata: {} }))).toEqual({ kind: "checkpoint", as: "payload" });
    expect(sniff("deepchecks_artifacts.yaml", "results: {}\n")).toEqual({ kind: "checks", as: "payload" });
    expect(sniff("settings.json", JSON.stringify({ theme: "dark" }))).toBeNull();
    expect(sniff("broken.json", "{not json")).toBeNull();
  });

  it("reads Python-tagged YAML (Lightning hparams) by dropping the tags, and bare NaN in JSON", () => {
    expect(parseStructured("hparams.yaml", "lr: 0.1\nmodel: !!python/object:argparse.Namespace\n  depth: 18\n")).toEqual({ lr: 0.1, model: { depth: 18 } });
    expect(parseStructured("trainer_state.json", '{"grad_norm": NaN}')).toEqual({ grad_norm: Number.NaN });
    expect(parseStructured("metrics.csv", "a,b")).toBeUndefined();
  });
});
