import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGLISH } from "../../../artifacts/language.js";
import { loadServiceSettings } from "../../../config/env.js";
import { Deadline } from "../../../graph/deadline.js";
import type { FactsByKind } from "../../../graph/facts.js";
import type { AgentResult } from "../../../domain/result.js";
import type { AnalyzerInput } from "../../../graph/state.js";
import { analyzeCheckpoint } from "../../../nodes/checkpoint/node.js";
import { checkpointDownloadPath } from "../../../nodes/checkpoint/paths.js";
import { testDeps } from "../../support/analysis-deps.js";
import { fixture } from "./fixtures.js";

const AGENT = "ModelCheckpointArtifactsAnalyzer";
let root: string;
let workspace: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "ckpt-root-")));
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "ckpt-ws-")));
  copyFileSync(fixture("torch/lightning.ckpt"), join(root, "lightning.ckpt"));
  copyFileSync(fixture("safetensors/fault-nonfinite.safetensors"), join(root, "model.safetensors"));
  const downloaded = checkpointDownloadPath(workspace, "runs:/abc123/checkpoints/hostile.pt");
  mkdirSync(dirname(downloaded), { recursive: true });
  copyFileSync(fixture("torch/hostile.pt"), downloaded);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

const input = (payload: Record<string, unknown>): AnalyzerInput => ({
  artifact: { kind: "checkpoint", field: "model_checkpoint_artifacts", payload, origin: "inline" },
  language: ENGLISH,
  datasetName: null,
  modelName: null,
});

async function run(payload: Record<string, unknown>, env: Record<string, string> = {}, deadline = new Deadline()) {
  const settings = loadServiceSettings({ SERVICE_ARTIFACT_ROOTS: root, ...env });
  const update = await analyzeCheckpoint(input(payload), { context: testDeps({ settings, workspace, deadline }) });
  return {
    result: (update.agentResults as Record<string, AgentResult>)[AGENT]!,
    facts: (update.facts as FactsByKind | undefined)?.checkpoint,
    errors: update.errors as Record<string, string>,
  };
}

describe("analyzeCheckpoint", () => {
  it("scans a Lightning checkpoint under an artifact root and fills the facts", async () => {
    const { result, facts } = await run({ checkpoint_path: join(root, "lightning.ckpt") });
    expect(result.error_message).toBeNull();
    expect(result.analyzed_artifacts[0]).toMatch(/^model_checkpoint_artifacts\.checkpoint_path \(torch_zip, 40 tensors, .* values scanned; 1 pickle\(s\) checked for imports\)$/);
    expect(facts).toEqual({
      format: "torch_zip", epoch: 12, global_step: 3900, num_parameters: 216 + 8 + 8 + 8 + 4096 + 32 + 320 + 10, head_classes: 10,
      has_optimizer_state: true, nonfinite_tensors: 0, scanned: true, best_model_score: expect.closeTo(0.4312, 6), monitor: "val_loss",
      best_model_path: "/runs/exp1/checkpoints/epoch=9-step=3250.ckpt", dangerous_globals: [], header_only: false,
    });
    expect(result.findings.every((f) => f.severity === "low" || f.severity === "info")).toBe(true);
  });

  it("reports a refused path clearly, naming the rule and the field", async () => {
    const { result, errors } = await run({ checkpoint_path: "/etc/passwd" });
    expect(result.findings).toEqual([]);
    expect(result.error_message).toBe(
      "could not read model_checkpoint_artifacts: model_checkpoint_artifacts.checkpoint_path: refused (OUTSIDE_ROOTS): the file is not under any of the directories in SERVICE_ARTIFACT_ROOTS",
    );
    expect(errors[AGENT]).toBe(result.error_message);
    const traversal = await run({ checkpoint_path: `${root}/../etc/passwd` });
    expect(traversal.result.error_message).toContain("refused (DOT_DOT_SEGMENT)");
  });

  it("finds non-finite weights in the file and reports the count in the facts", async () => {
    const { result, facts } = await run({ checkpoint_path: join(root, "model.safetensors"), metadata: { config: { num_classes: 12 } } });
    expect(result.severity).toBe("critical");
    expect(result.findings[0]!.id).toBe("checkpoint.nonfinite_weights");
    expect(facts).toMatchObject({ nonfinite_tensors: 1, head_classes: 12, scanned: true });
  });

  it("scans header-only above SERVICE_MAX_CHECKPOINT_BYTES and says so", async () => {
    const { result, facts } = await run({ checkpoint_path: join(root, "model.safetensors") }, { SERVICE_MAX_CHECKPOINT_BYTES: "1024" });
    expect(result.findings.map((f) => f.id)).toContain("checkpoint.header_only");
    expect(result.analyzed_artifacts[0]).toContain("header only, above SERVICE_MAX_CHECKPOINT_BYTES");
    expect(facts).toMatchObject({ header_only: true, nonfinite_tensors: 0 });
  });

  it("analyzes metadata only for an MLflow URI that was not downloaded, and says so", async () => {
    const { result, facts } = await run({ checkpoint_path: "runs:/zzz/model/last.ckpt", metadata: { epoch: 3, config: { num_classes: 4 } } });
    expect(result.error_message).toBeNull();
    expect(result.analyzed_artifacts).toEqual(["model_checkpoint_artifacts (runs:/zzz/model/last.ckpt: MLflow URI, file not downloaded; metadata analyzed only)"]);
    expect(facts).toMatchObject({ scanned: false, epoch: 3, head_classes: 4 });
  });

  it("scans the copy an MLflow download left in the workspace", async () => {
    const { result, facts } = await run({ checkpoint_path: "runs:/abc123/checkpoints/hostile.pt" });
    expect(result.severity).toBe("critical");
    expect(result.findings[0]!.description).toContain("posix.system");
    expect(facts).toMatchObject({ scanned: true, dangerous_globals: ["posix.system"] });
  });

  it("stops when the request is aborted", async () => {
    // The request's deadline is what every step follows (graph/deadline.ts): ended, it ends the scan.
    const deadline = new Deadline();
    deadline.abort(new Error("request timed out"));
    await expect(run({ checkpoint_path: join(root, "lightning.ckpt") }, {}, deadline)).rejects.toThrow("request timed out");
  });
});
