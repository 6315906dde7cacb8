import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../client/main.js";
import { type RunningService, startService } from "../support/http-service.js";

/**
 * A checkpoint scanned by the client and sent as metadata + tensor_stats gets the same checkpoint findings, at the
 * same severities, as the same file scanned by the service (--server-paths): weights, dangerous pickle imports,
 * damaged files, optimizer state in training folders.
 */

const DIR = "test/fixtures/checkpoint";
let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ SERVICE_ARTIFACT_ROOTS: resolve(DIR) });
});
afterAll(() => svc?.close());

async function analyse(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["analyse", ...args, "--format", "json", "--server", svc.url], {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    env: {},
  });
  return { code, out, err };
}

async function checkpointFindings(args: string[]): Promise<string[]> {
  const r = await analyse(args);
  expect(r.code, r.err).toBe(0);
  const body = JSON.parse(r.out);
  return body.agent_results.ModelCheckpointArtifactsAnalyzer.findings.map((f: { id: string; severity: string }) => `${f.severity} ${f.id}`).sort();
}

/** Every checkpoint fixture kind: weights faults, damaged files, dangerous pickles, training folders. */
const FIXTURES = [
  "safetensors/benign-mlp.safetensors",
  "safetensors/benign-transformer-bf16.safetensors",
  "safetensors/fault-all-zero.safetensors",
  "safetensors/fault-batchnorm.safetensors",
  "safetensors/fault-constant.safetensors",
  "safetensors/fault-dead-units.safetensors",
  "safetensors/fault-dtype-mix.safetensors",
  "safetensors/fault-exploding.safetensors",
  "safetensors/fault-fp16-near-max.safetensors",
  "safetensors/fault-nonfinite.safetensors",
  "safetensors/fault-truncated.safetensors",
  "safetensors/fault-hole.safetensors",
  "safetensors/fault-header-too-large.safetensors",
  "torch/smallnet-faults.pt",
  "torch/smallnet-legacy.pt",
  "torch/mixed-precision.pt",
  "torch/pytorch_model.bin",
  "torch/hostile.pt",
  "torch/whole-model.pt",
  "torch/lightning.ckpt",
  "pickle/process-os-system.pkl",
  "folders/sharded",
  "folders/sharded-missing-shard",
  "folders/hf-trainer",
  "folders/hf-nonfinite-optimizer",
  "folders/lightning",
  "ml-pickles/benign/sklearn-random-forest.joblib",
  "ml-pickles/benign/sklearn-random-forest-zlib.joblib",
  "ml-pickles/benign/sklearn-pipeline.joblib",
  "ml-pickles/benign/pandas-dataframe.pkl",
  "ml-pickles/hostile/object-array-nested.joblib",
  "ml-pickles/hostile/sklearn-pipeline-step.joblib",
  "ml-pickles/unread/sklearn-random-forest.joblib.xz",
  "ml-pickles/trainers/yolo-best.pt",
  "ml-pickles/trainers/timm-ema.pth.tar",
  "modelfiles/keras/lambda.keras",
  "modelfiles/keras/custom-layer.keras",
  "modelfiles/onnx/inconsistent.onnx",
  "modelfiles/keras/legacy-nan.h5",
  "modelfiles/keras/legacy-lambda.h5",
  "modelfiles/onnx/nan-initializer.onnx",
  "modelfiles/onnx/custom-domain.onnx",
  "modelfiles/onnx/external/model.onnx",
  "modelfiles/onnx/truncated.onnx",
  "modelfiles/gguf/nan.gguf",
  "modelfiles/gguf/truncated.gguf",
  "modelfiles/savedmodel/readfile/saved_model.pb",
  "modelfiles/savedmodel/nan-variable/saved_model.pb",
];

describe("client statistics vs the service's own scan", { timeout: 120_000 }, () => {
  it.each(FIXTURES)("%s: the same checkpoint findings either way", async (file) => {
    const path = `${DIR}/${file}`;
    const local = await checkpointFindings([path]);
    expect(local).toEqual(await checkpointFindings([path, "--server-paths"]));
  });
});
