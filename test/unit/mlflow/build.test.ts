import { describe, expect, it } from "vitest";
import { buildCheckpoint, type CheckpointCandidate, parseAliases, rankCheckpoints } from "../../../artifacts/mlflow/build/checkpoint.js";
import { buildChecks } from "../../../artifacts/mlflow/build/checks.js";
import { buildDataset } from "../../../artifacts/mlflow/build/dataset.js";
import { sniffAll } from "../../../artifacts/mlflow/build/sniffed.js";
import { buildTraining, csvFormat } from "../../../artifacts/mlflow/build/training.js";
import type { ArtifactSource } from "../../../artifacts/mlflow/client.js";
import type { FileRole } from "../../../artifacts/mlflow/discover.js";
import type { PulledDocument } from "../../../artifacts/mlflow/documents.js";
import { type DatasetInput, RunSchema } from "../../../artifacts/mlflow/schemas.js";

const doc = (path: string, value: unknown, role: FileRole = "document", text = typeof value === "string" ? value : JSON.stringify(value)): PulledDocument => ({
  path,
  role,
  size: text.length,
  text,
  bytes: new TextEncoder().encode(text),
  value: typeof value === "string" ? undefined : value,
});

const run = RunSchema.parse({
  info: { run_id: "r1", run_name: "brave-owl", experiment_id: "3", status: "FINISHED", artifact_uri: "mlflow-artifacts:/3/r1/artifacts" },
  data: {
    metrics: [{ key: "val_loss", value: 0.4, step: 2 }],
    params: [{ key: "lr", value: "0.001" }, { key: "batch_size", value: "64" }],
    tags: [
      { key: "mlflow.runName", value: "brave-owl" },
      { key: "mlflow.log-model.history", value: "[{...}]" },
    ],
  },
});

describe("training_artifacts from a run", () => {
  it("turns metric histories into the MLflow history form, sorted by step then time, with run params and provenance", () => {
    const payload = buildTraining({
      run,
      base: null,
      metrics: {
        from: "history",
        histories: {
          val_loss: [
            { key: "val_loss", value: 0.4, step: 2, timestamp: 30 },
            { key: "val_loss", value: 0.6, step: 1, timestamp: 20 },
            { key: "val_loss", value: 0.55, step: 1, timestamp: 10 },
          ],
        },
      },
      hparams: [doc("hparams.yaml", { lr: 0.01, optimizer: { name: "adamw", betas: [0.9, 0.99] } }, "hparams")],
      logs: [doc("logs/train.log", "epoch 1\n\nwarning: x\n", "log")],
    });
    expect(payload!.metrics).toEqual({
      val_loss: [
        { step: 1, value: 0.55, timestamp: 10 },
        { step: 1, value: 0.6, timestamp: 20 },
        { step: 2, value: 0.4, timestamp: 30 },
      ],
    });
    // Run params win over hparams.yaml; nested hparams become dotted keys.
    expect(payload!.params).toEqual({ lr: "0.001", batch_size: "64", "optimizer.name": "adamw", "optimizer.betas": [0.9, 0.99] });
    expect(payload!.logs).toEqual(["epoch 1", "", "warning: x"]);
    expect(payload!.metadata).toMatchObject({
      mlflow: { run_id: "r1", run_name: "brave-owl", experiment_id: "3", metrics_source: "mlflow metric history", tags: { "mlflow.runName": "brave-owl" } },
    });
    expect(JSON.stringify(payload!.metadata)).not.toContain("log-model.history");
  });

  it("keeps a base payload's own metrics, params and metadata; nothing to analyze gives null", () => {
    const base = { metrics_values: { key: ["loss"], value: [1] }, params: { lr: "0.5" }, metadata: { logger: "csv" } };
    const payload = buildTraining({ run, base, metrics: { from: "history", histories: {} }, hparams: [], logs: [] });
    expect(payload).toMatchObject({ metrics_values: base.metrics_values, params: { lr: "0.5", batch_size: "64" }, metadata: { logger: "csv" } });
    expect(payload!.metrics).toBeUndefined();
    expect(buildTraining({ run, base: null, metrics: null, hparams: [], logs: [] })).toBeNull();
  });

  it("names metrics CSV formats from their place and header", () => {
    expect(csvFormat("lightning_logs/version_0/metrics.csv", "epoch,step,val_loss", [])).toBe("lightning_csv");
    expect(csvFormat("logs/metrics.csv", "a,b", ["logs/hparams.yaml"])).toBe("lightning_csv");
    expect(csvFormat("history.csv", "epoch,accuracy,loss", [])).toBe("keras_csv");
    expect(csvFormat("training_artifacts/metrics.csv", "key,value,timestamp,step", [])).toBe("csv");
  });
});

describe("checks_artifacts from a run", () => {
  const deepchecks = { type: "SuiteResult", name: "Suite", results: [] };
  const evidently = { metrics: [{ metric: "DatasetDriftMetric", result: {} }] };
  const legacy = { dataset_name: "d", results: { train_test_validation: [{ header: "Label Drift", json_result: {} }] } };

  it("lists reports in path order and concatenates generic check lists", () => {
    const sniffed = sniffAll([doc("z/evidently.json", evidently), doc("a/deepchecks.json", deepchecks), doc("checks.json", [{ name: "n", status: "warn" }])]);
    expect(buildChecks(sniffed)).toEqual({ reports: [deepchecks, evidently], checks: [{ name: "n", status: "warn" }] });
  });

  it("passes the legacy client's lone suite map as is, and nests it among reports otherwise", () => {
    expect(buildChecks(sniffAll([doc("deepchecks/deepchecks.yaml", legacy)]))).toEqual(legacy);
    expect(buildChecks(sniffAll([doc("deepchecks/deepchecks.yaml", legacy), doc("ev.json", evidently)]))).toEqual({ reports: [legacy, evidently] });
    expect(buildChecks(sniffAll([doc("notes.json", { a: 1 })]))).toBeNull();
  });
});

describe("dataset_artifacts from a run", () => {
  const input = (name: string, context: string | null): DatasetInput => ({
    tags: context ? [{ key: "mlflow.data.context", value: context }] : [],
    dataset: { name, digest: `d-${name}`, source_type: "local", source: "{}", schema: "{}", profile: '{"num_rows": 3}' },
  });

  it("makes the training input the statistics when no file gives any, and lists every input when there are several", () => {
    const payload = buildDataset(sniffAll([doc("dataset_artifacts.json", { metadata: { task: "classification" } })]), [input("val", "validation"), input("train", "training")]);
    expect(payload!.statistics).toEqual({ name: "train", digest: "d-train", source_type: "local", source: "{}", schema: "{}", profile: '{"num_rows": 3}' });
    expect(payload!.metadata).toMatchObject({ task: "classification", "mlflow.data.context": "training" });
    expect((payload!.metadata as any).mlflow_datasets.map((d: any) => [d.name, d.context])).toEqual([["val", "validation"], ["train", "training"]]);
  });

  it("adds the input under statistics.mlflow_dataset beside file statistics; nothing at all gives null", () => {
    const payload = buildDataset(sniffAll([doc("dataset/statistics.json", { num_rows: 10 })]), [input("train", null)]);
    expect(payload).toEqual({ statistics: { num_rows: 10, mlflow_dataset: expect.objectContaining({ name: "train" }) } });
    expect(buildDataset([], [])).toBeNull();
  });
});

describe("choosing and describing the checkpoint", () => {
  const source: ArtifactSource = { label: "run 'r1'", list: async () => [], open: async () => ({}) as never };
  const candidate = (path: string, extra: Partial<CheckpointCandidate> = {}): CheckpointCandidate => ({
    role: "checkpoint",
    file: { path, is_dir: false, file_size: 100 },
    source,
    uri: `runs:/r1/${path}`,
    model: null,
    siblings: [],
    inModelDir: false,
    aliases: [],
    ...extra,
  });
  const order = (cs: CheckpointCandidate[]) => rankCheckpoints(cs).map((c) => c.file.path);

  it("prefers the legacy client's pick, then Lightning's best alias, best in the name, a logged model, last", () => {
    expect(order([candidate("ckpt/last.ckpt"), candidate("best_checkpoint/m.pt"), candidate("ckpt/best.ckpt")])[0]).toBe("best_checkpoint/m.pt");
    expect(order([candidate("c/last/last.ckpt"), candidate("c/epoch=3/epoch=3.ckpt", { aliases: ["latest", "best"] })])[0]).toBe("c/epoch=3/epoch=3.ckpt");
    expect(order([candidate("w/last.ckpt"), candidate("model/artifacts/w.safetensors", { inModelDir: true })])[0]).toBe("model/artifacts/w.safetensors");
    expect(order([candidate("checkpoint-2000/model.safetensors"), candidate("checkpoint-3000/model.safetensors")])[0]).toBe("checkpoint-3000/model.safetensors");
    expect(order([candidate("w/model.pt"), candidate("w/model.safetensors")])[0]).toBe("w/model.safetensors");
  });

  it("describes the chosen file from its sidecars without overriding the writer's own metadata", () => {
    const payload = buildCheckpoint({
      chosen: candidate("ckpt/epoch=3/epoch=3.ckpt"),
      base: { metadata: { framework: "pytorch", size_bytes: 999 } },
      sidecars: [
        doc("ckpt/epoch=3/metadata.yaml", { score: 0.57, Checkpoint: { monitor: "val_loss" } }, "checkpoint_sidecar"),
        doc("ckpt/epoch=3/aliases.txt", "['latest', 'best']", "checkpoint_sidecar"),
        doc("ckpt/epoch=3/config.json", { hidden_size: 8 }, "checkpoint_sidecar"),
        doc("ckpt/epoch=3/epoch=3.ckpt.json", { epoch: 3 }, "checkpoint_sidecar"),
        doc("MLmodel", { flavors: { pytorch: {}, python_function: {} }, model_uuid: "u1", run_id: "r1" }, "mlmodel"),
      ],
      others: [candidate("ckpt/last/last.ckpt")],
    });
    expect(payload).toEqual({
      checkpoint_path: "runs:/r1/ckpt/epoch=3/epoch=3.ckpt",
      metadata: {
        framework: "pytorch",
        size_bytes: 999,
        epoch: 3,
        config: { hidden_size: 8 },
        model_checkpoint: { score: 0.57, Checkpoint: { monitor: "val_loss" }, aliases: ["latest", "best"] },
        mlflow_model: { flavors: ["pytorch", "python_function"], model_uuid: "u1", run_id: "r1" },
        checkpoint_name: "epoch=3.ckpt",
        mlflow: { uri: "runs:/r1/ckpt/epoch=3/epoch=3.ckpt", other_checkpoints: ["runs:/r1/ckpt/last/last.ckpt"] },
      },
    });
    expect(parseAliases('["latest"]')).toEqual(["latest"]);
  });
});
