import { describe, expect, it } from "vitest";
import { normalizeLanguage } from "../../../artifacts/language.js";
import type { FactsByKind } from "../../../graph/facts.js";
import type { AgentResult, Finding, Severity } from "../../../domain/result.js";
import { analyzeTraining } from "../../../nodes/training/node.js";
import { testDeps } from "../../support/analysis-deps.js";
import { sampleTrainingArtifact } from "../../support/training-run.js";

/** Runs the training analyzer node (parse → detectors → citations → result, deterministic mode) on a sample. */
async function analyze(name: string) {
  const payload = sampleTrainingArtifact(name);
  const update = await analyzeTraining(
    { artifact: { kind: "training", field: "training_artifacts", payload, origin: "inline" }, language: normalizeLanguage("english"), datasetName: null, modelName: null },
    { context: testDeps() },
  );
  const result = Object.values(update.agentResults ?? {})[0] as AgentResult;
  const facts = (update.facts as FactsByKind).training!;
  return { result, facts, byId: new Map(result.findings.map((f) => [f.id, f])) };
}

const worst = (findings: Finding[]): Severity | undefined => findings[0]?.severity;

describe("training diagnosis of the sample requests", () => {
  it("full-image-classification: clear overfitting (high), generalization gap, last checkpoint kept, no early stopping", async () => {
    const { result, facts, byId } = await analyze("full-image-classification");
    expect(result.error_message).toBeNull();
    expect(result.analyzed_artifacts[0]).toMatch(/lightning_csv, 1950 records/);
    expect(byId.get("training.overfitting")).toMatchObject({ severity: "high" });
    expect(byId.get("training.generalization_gap")?.evidence[0]!.values).toMatchObject({ metric: "accuracy" });
    expect(byId.get("training.early_stop_opportunity")).toMatchObject({ severity: "low" });
    expect(byId.has("training.nonfinite_loss")).toBe(false);
    expect(facts).toMatchObject({ best_val_epoch: 23, last_epoch: 59, best_checkpoint_kept: false, early_stopping: false, format: "lightning_csv" });
    expect(facts.best_val_loss).toBeCloseTo(0.5524, 4);
    expect(facts.final_val_loss).toBeCloseTo(1.1769, 4);
    expect(facts.final_train_accuracy).toBeCloseTo(0.9927, 4);
    expect(facts.best_val_accuracy).toBeCloseTo(0.8669, 4);
    expect(facts.params.early_stopping).toBe("False");
  });

  it("llm-finetune-hf: critical non-finite grad_norm, unrecovered spikes from step 2180, no overfitting", async () => {
    const { result, facts, byId } = await analyze("llm-finetune-hf");
    expect(worst(result.findings)).toBe("critical");
    expect(result.findings[0]!.id).toBe("training.exploding_gradients");
    expect(byId.get("training.loss_spikes")!.evidence[0]!.values).toMatchObject({ first_unrecovered_step: 2180 });
    expect(byId.get("training.divergence")).toMatchObject({ severity: "high" });
    expect(byId.get("training.amp_overflow")).toBeDefined();
    expect(byId.has("training.overfitting")).toBe(false);
    expect(facts).toMatchObject({ best_val_step: 2000, losses_finite: true, lr_peak_step: 30, val_samples: 1200, best_checkpoint_kept: true });
    expect(facts.best_val_loss).toBeCloseTo(1.2183, 4);
    expect(facts.spike_steps).toEqual(expect.arrayContaining([1130, 2180, 2420, 2610, 2790]));
    expect(facts.params.fp16).toBe("True");
  });

  it("tabular-healthy: nothing high or critical, no overfitting or plateau", async () => {
    const { result, facts, byId } = await analyze("tabular-healthy");
    for (const f of result.findings) expect(["low", "info"]).toContain(f.severity);
    expect(byId.has("training.overfitting")).toBe(false);
    expect(byId.has("training.plateau")).toBe(false);
    expect(result.severity).not.toMatch(/critical|high|medium/);
    expect(facts).toMatchObject({ best_val_step: 30, early_stopping: true, best_checkpoint_kept: true });
    expect(facts.best_val_loss).toBeCloseTo(0.4149, 4);
    expect(facts.val_noise).toBeGreaterThan(0.0005);
    expect(facts.val_noise).toBeLessThan(0.005);
  });

  it("tabular-drift-evidently: generalization gap 0.968 vs 0.748 and five ReduceLROnPlateau halvings", async () => {
    const { byId, facts } = await analyze("tabular-drift-evidently");
    expect(byId.get("training.generalization_gap")).toMatchObject({ severity: "high" });
    expect(byId.get("training.lr_schedule")).toMatchObject({ severity: "medium" });
    expect(byId.get("training.lr_schedule")!.evidence[0]!.observed).toBe(5);
    expect(facts.final_train_accuracy).toBeCloseTo(0.9684, 4);
    expect(facts.final_val_accuracy).toBeCloseTo(0.7482, 4);
    expect(facts.best_val_epoch).toBe(3);
  });

  it("mlflow-logged-dataset: suspicious perfection and val loss below train loss throughout", async () => {
    const { byId, facts } = await analyze("mlflow-logged-dataset");
    expect(byId.get("training.suspicious_perfection")).toMatchObject({ severity: "medium" });
    expect(byId.get("training.train_val_inversion")).toMatchObject({ severity: "medium" });
    expect(byId.get("training.train_val_inversion")!.evidence[0]!.observed).toBe(1);
    expect(facts.best_val_accuracy).toBeGreaterThan(0.998);
    expect(facts.val_quantities).toEqual(["accuracy", "loss"]);
  });

  it("reports an unreadable artifact as the agent's error, not a crash", async () => {
    const update = await analyzeTraining(
      { artifact: { kind: "training", field: "training_artifacts", payload: { metrics: { format: "lightning_csv", content: "epoch,note\n0,a\n" } }, origin: "inline" }, language: normalizeLanguage("english"), datasetName: null, modelName: null },
      { context: testDeps() },
    );
    expect(Object.values(update.errors ?? {})[0]).toMatch(/could not read training_artifacts: metrics \(lightning_csv\): no numeric metric found/);
  });
});
