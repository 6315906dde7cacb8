import { describe, expect, it } from "vitest";
import { earlyStopOpportunity } from "../../../nodes/training/detectors/early-stop-opportunity.js";
import { evalCoverage } from "../../../nodes/training/detectors/eval-coverage.js";
import { generalizationGap } from "../../../nodes/training/detectors/generalization-gap.js";
import { metricFrozen } from "../../../nodes/training/detectors/metric-frozen.js";
import { overfitting } from "../../../nodes/training/detectors/overfitting.js";
import { suspiciousPerfection } from "../../../nodes/training/detectors/suspicious-perfection.js";
import { trainValInversion } from "../../../nodes/training/detectors/train-val-inversion.js";
import { underfitting } from "../../../nodes/training/detectors/underfitting.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { Prng } from "../../support/prng.js";
import { healthyHistory } from "../../support/synthetic-history.js";
import { sampleTrainingArtifact, series, trainingRun } from "../../support/training-run.js";

const rng = new Prng(11);
const sample = (name: string) => parseTrainingArtifact(sampleTrainingArtifact(name));
const healthy = (kind: Parameters<typeof healthyHistory>[1]) => Array.from({ length: 30 }, (_, i) => parseTrainingArtifact(healthyHistory(5 + 7 * i, kind)));

describe("TH-13 overfitting", () => {
  it("is high on full-image-classification: val loss min ≈ 0.55 near epoch 23, 1.18 by epoch 59, last checkpoint kept", () => {
    const [f] = overfitting.detect(sample("full-image-classification"));
    expect(f).toMatchObject({ id: "training.overfitting", severity: "high" });
    const v = f!.evidence[0]!.values!;
    expect(v.best_val_loss).toBeCloseTo(0.564, 2);
    expect(Number(v.best_step)).toBeGreaterThan(6000);
    expect(Number(v.final_val_loss)).toBeGreaterThan(1.1);
    expect(v.best_checkpoint_kept).toBe(false);
    expect(f!.confidence).toBeLessThan(0.95);
  });

  it("stays quiet on tabular-healthy (val 0.4149 → 0.4198 within noise, early stopping restores the best)", () => {
    expect(overfitting.detect(sample("tabular-healthy"))).toEqual([]);
  });

  it("stays quiet when the train loss rises too (instability, not overfitting: llm-finetune-hf)", () => {
    expect(overfitting.detect(sample("llm-finetune-hf"))).toEqual([]);
  });

  it("stays (almost always) quiet on double descent and on small validation sets with correlated noise", () => {
    const findings = [...healthy("double_descent"), ...healthy("small_val")].flatMap((run) => overfitting.detect(run));
    expect(findings.length).toBeLessThanOrEqual(1);
    expect(findings.filter((f) => f.severity === "high")).toEqual([]);
  });
});

describe("TH-14 generalization_gap", () => {
  it("is high for train accuracy 0.968 against val 0.748 (tabular-drift-evidently)", () => {
    const [f] = generalizationGap.detect(sample("tabular-drift-evidently"));
    expect(f).toMatchObject({ id: "training.generalization_gap", severity: "high" });
    expect(Number(f!.evidence[0]!.values!.train_final)).toBeCloseTo(0.966, 2);
    expect(Number(f!.evidence[0]!.values!.val_final)).toBeCloseTo(0.749, 2);
  });

  it("uses the loss bands without accuracies and stays quiet on an 8 % loss gap (tabular-healthy)", () => {
    expect(generalizationGap.detect(sample("tabular-healthy"))).toEqual([]);
    const run = trainingRun({ loss: series(20, (i) => 1 - 0.04 * i), val_loss: series(20, (i) => 1.1 - 0.02 * i) });
    expect(generalizationGap.detect(run)[0]).toMatchObject({ severity: "high" });
  });
});

describe("TH-15 early_stop_opportunity", () => {
  it("is low with the wasted share when validation saturated long before the end (full-image-classification)", () => {
    const [f] = earlyStopOpportunity.detect(sample("full-image-classification"));
    expect(f).toMatchObject({ severity: "low" });
    expect(Number(f!.evidence[0]!.values!.wasted_share)).toBeGreaterThan(0.5);
  });

  it("stays quiet while validation is still improving", () => {
    const improving = series(40, (i) => (0.4 + 1.5 / (1 + i / 3)) * (1 + 0.002 * rng.normal()));
    expect(earlyStopOpportunity.detect(trainingRun({ val_loss: improving }))).toEqual([]);
  });
});

describe("TH-16 underfitting", () => {
  it("is high when training accuracy stays near chance for the stated classes", () => {
    const run = trainingRun(
      { loss: series(30, (i) => 2.3 - 0.01 * i), accuracy: series(30, (i) => 0.1 + 0.001 * i), val_accuracy: series(30, (i) => 0.1 + 0.0008 * i) },
      { params: { num_classes: 10 } },
    );
    expect(underfitting.detect(run)[0]).toMatchObject({ id: "training.underfitting", severity: "high" });
  });

  it("stays quiet on a model that fits its training data", () => {
    expect(underfitting.detect(trainingRun({ loss: series(30, (i) => 2.3 * Math.exp(-i / 8)), accuracy: series(30, (i) => 0.1 + 0.85 * (1 - Math.exp(-i / 8))) }, { params: { num_classes: 10 } }))).toEqual([]);
  });
});

describe("TH-17 metric_frozen", () => {
  it("is high for a validation accuracy stuck at the majority share", () => {
    const run = trainingRun({ val_accuracy: series(30, () => 0.6931), loss: series(30, (i) => 0.69 - 0.001 * i) }, { params: { majority_share: 0.6931 } });
    const [f] = metricFrozen.detect(run);
    expect(f).toMatchObject({ id: "training.metric_frozen", severity: "high" });
    expect(f!.evidence[0]!.values!.class_prior).toBeCloseTo(0.6931, 4);
  });

  it("stays quiet on a converged accuracy that merely moves little (full-image-classification) and on one saturated at 1", () => {
    expect(metricFrozen.detect(sample("full-image-classification"))).toEqual([]);
    expect(metricFrozen.detect(trainingRun({ accuracy: series(40, (i) => (i < 5 ? 0.9 + 0.02 * i : 1)) }))).toEqual([]);
  });
});

describe("TH-18 train_val_inversion", () => {
  it("is medium when val loss stays far below train loss (mlflow-logged-dataset), dropout notwithstanding", () => {
    const [f] = trainValInversion.detect(sample("mlflow-logged-dataset"));
    expect(f).toMatchObject({ id: "training.train_val_inversion", severity: "medium" });
    expect(f!.description).toContain("attention_dropout=0.2");
  });

  it("is at most low for the mild inversion that declared dropout explains", () => {
    for (const run of healthy("dropout_inversion")) {
      for (const f of trainValInversion.detect(run)) expect(f.severity).toBe("low");
    }
  });
});

describe("TH-19 suspicious_perfection", () => {
  it("is medium for val accuracy 0.995 at the first evaluation (mlflow-logged-dataset)", () => {
    const [f] = suspiciousPerfection.detect(sample("mlflow-logged-dataset"));
    expect(f).toMatchObject({ id: "training.suspicious_perfection", severity: "medium" });
    expect(f!.evidence[0]!.window).toEqual([0, 0]);
  });

  it("stays quiet when 0.99 is reached only late in training", () => {
    expect(suspiciousPerfection.detect(trainingRun({ val_accuracy: series(30, (i) => 0.6 + 0.4 * (1 - Math.exp(-i / 6))) }))).toEqual([]);
  });
});

describe("TH-22 eval_coverage", () => {
  it("is info when no validation metric is logged, and names what else is missing", () => {
    const [f] = evalCoverage.detect(trainingRun({ loss: series(50, (i) => 2 - 0.02 * i) }));
    expect(f).toMatchObject({ id: "training.eval_coverage", severity: "info" });
    expect(f!.description).toMatch(/does not log lr or grad_norm/);
  });

  it("is info when the first evaluation comes late, quiet with regular evaluation", () => {
    expect(evalCoverage.detect(trainingRun({ loss: series(100, (i) => 2 - 0.01 * i), val_loss: [[60, 1.5], [70, 1.4], [80, 1.3], [90, 1.2], [99, 1.1]] }))).toHaveLength(1);
    expect(evalCoverage.detect(sample("llm-finetune-hf"))).toEqual([]);
  });
});
