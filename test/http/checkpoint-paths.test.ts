import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const fixture = new URL("../fixtures/checkpoint/safetensors/benign-mlp.safetensors", import.meta.url).pathname;
const hostile = new URL("../fixtures/checkpoint/pickle/process-os-system.pkl", import.meta.url).pathname;
const trainerFolder = new URL("../fixtures/checkpoint/folders/hf-trainer/checkpoint-4", import.meta.url).pathname;
/** Written by transformers' own Trainer (scripts/fixtures/real/checkpoint_corpus.py): a healthy run and one at lr 1e6. */
const realTrainer = new URL("../fixtures/real/checkpoints/hf-trainer-checkpoint/checkpoint-6", import.meta.url).pathname;
const realDiverged = new URL("../fixtures/real/checkpoints/hf-trainer-diverged/checkpoint-4", import.meta.url).pathname;

describe("checkpoint_path on the HTTP API", () => {
  let root: string;
  let outside: string;
  let svc: RunningService;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "ckpt-root-"));
    outside = mkdtempSync(join(tmpdir(), "ckpt-outside-"));
    mkdirSync(join(root, "run1"));
    copyFileSync(fixture, join(root, "run1", "model.safetensors"));
    copyFileSync(hostile, join(root, "run1", "weights.pt"));
    copyFileSync(fixture, join(outside, "secret.safetensors"));
    symlinkSync(join(outside, "secret.safetensors"), join(root, "run1", "link.safetensors"));
    cpSync(trainerFolder, join(root, "hf", "checkpoint-4"), { recursive: true });
    cpSync(realTrainer, join(root, "real", "checkpoint-6"), { recursive: true });
    cpSync(realDiverged, join(root, "diverged", "checkpoint-4"), { recursive: true });
    cpSync(trainerFolder, join(root, "leaky", "checkpoint-4"), { recursive: true });
    symlinkSync(join(outside, "secret.safetensors"), join(root, "leaky", "checkpoint-4", "extra.safetensors"));
    svc = await startService({ SERVICE_ARTIFACT_ROOTS: root });
  });
  afterAll(async () => {
    await svc.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const analyse = (checkpoint_path: string) => postJson(`${svc.url}/v1/analyse`, { model_checkpoint_artifacts: { checkpoint_path } });

  it("scans a file under SERVICE_ARTIFACT_ROOTS", async () => {
    const res = await analyse(join(root, "run1", "model.safetensors"));
    expect(res.status).toBe(200);
    const agent = res.json.agent_results.ModelCheckpointArtifactsAnalyzer;
    expect(agent.error_message).toBeNull();
    expect(agent.analyzed_artifacts.join(" ")).toMatch(/values scanned/);
  });

  it("reports a hostile pickle under the roots as critical without loading it", async () => {
    const res = await analyse(join(root, "run1", "weights.pt"));
    expect(res.status).toBe(200);
    const unsafe = res.json.agent_results.ModelCheckpointArtifactsAnalyzer.findings.find((f: any) => f.id === "checkpoint.unsafe_pickle");
    expect(unsafe.severity).toBe("critical");
    expect(unsafe.description).toMatch(/os|posix/);
  });

  it("scans a Trainer checkpoint folder as one checkpoint: weights, config and optimizer state", async () => {
    const res = await analyse(join(root, "hf", "checkpoint-4"));
    expect(res.status).toBe(200);
    const agent = res.json.agent_results.ModelCheckpointArtifactsAnalyzer;
    expect(agent.error_message).toBeNull();
    const described = agent.analyzed_artifacts.join(" ");
    expect(described).toContain("model.safetensors (weights)");
    expect(described).toContain("optimizer.pt (optimizer)");
    expect(agent.findings.filter((f: any) => f.severity === "high" || f.severity === "critical")).toEqual([]);
  });

  it("reads real Trainer checkpoint folders: nothing high on a healthy run, NaN weights critical on a diverged one", async () => {
    const healthy = (await analyse(join(root, "real", "checkpoint-6"))).json.agent_results.ModelCheckpointArtifactsAnalyzer;
    expect(healthy.error_message).toBeNull();
    expect(healthy.analyzed_artifacts.join(" ")).toContain("training_args.bin (training_args)");
    expect(healthy.findings.filter((f: any) => f.severity === "high" || f.severity === "critical")).toEqual([]);
    const diverged = (await analyse(join(root, "diverged", "checkpoint-4"))).json.agent_results.ModelCheckpointArtifactsAnalyzer;
    expect(diverged.findings.find((f: any) => f.id === "checkpoint.nonfinite_weights")?.severity).toBe("critical");
  });

  it("refuses a folder one of whose files escapes the roots through a symlink", async () => {
    const res = await analyse(join(root, "leaky", "checkpoint-4"));
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/refused \(SYMLINK_ESCAPE\): the folder's entry extra\.safetensors/);
    expect(res.json.detail).not.toContain(outside);
  });

  it.each([
    ["outside the roots", () => join(outside, "secret.safetensors"), "OUTSIDE_ROOTS"],
    ["escaping through ..", () => `${root}/run1/../../etc/passwd`, "DOT_DOT_SEGMENT"],
    ["escaping through a symlink", () => join(root, "run1", "link.safetensors"), "SYMLINK_ESCAPE"],
    ["relative", () => "run1/model.safetensors", "NOT_ABSOLUTE"],
    ["another scheme", () => "s3://bucket/model.safetensors", "UNSUPPORTED_SCHEME"],
  ])("refuses a path %s with a 400 naming the rule", async (_what, path, rule) => {
    const res = await analyse(path());
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(new RegExp(`^Error decoding request: model_checkpoint_artifacts\\.checkpoint_path: refused \\(${rule}\\)`));
    expect(res.json.detail).not.toContain(root);
  });

  it("refuses every local path when no roots are configured", async () => {
    const bare = await startService();
    try {
      const res = await postJson(`${bare.url}/v1/analyse`, { model_checkpoint_artifacts: { checkpoint_path: fixture } });
      expect(res.status).toBe(400);
      expect(res.json.detail).toMatch(/refused \(NO_ROOTS_CONFIGURED\)/);
    } finally {
      await bare.close();
    }
  });
});
