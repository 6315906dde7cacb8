import { describe, expect, it } from "vitest";
import { trainValInversion } from "../../../nodes/training/detectors/train-val-inversion.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-18's rules at their edges: the validation loss below 0.9 × the smoothed train loss, or the validation accuracy
 * above it by max(2 SE, 0.005), on more than half of the evaluations; medium, low when declared train-only
 * regularization explains a mild inversion, medium again when the inversion is strong (median ratio < 0.5 or
 * median lead > 0.05).
 */

const N = 20;
/** Train loss flat at 1; val loss at `below` for the first `k` evaluations and 1 after. */
const losses = (k: number, below: number, params: Record<string, unknown> = {}) =>
  trainingRun({ loss: series(N, () => 1), val_loss: series(N, (i) => (i < k ? below : 1)) }, { params });
/** Train accuracy flat at 0.8; val accuracy `lead` above it for the first `k` evaluations. */
const accuracies = (k: number, lead: number, params: Record<string, unknown> = {}) =>
  trainingRun({ accuracy: series(N, () => 0.8), val_accuracy: series(N, (i) => (i < k ? 0.8 + lead : 0.8)) }, { params });
const severities = (run: ReturnType<typeof trainingRun>) => trainValInversion.detect(run).map((f) => f.severity);

describe("TH-18 train_val_inversion from the losses", () => {
  it("needs the val loss below 0.9 × the train loss on more than half of the evaluations", () => {
    expect(severities(losses(11, 0.85))).toEqual(["medium"]);
    expect(severities(losses(10, 0.85))).toEqual([]);
    expect(severities(losses(20, 0.9))).toEqual([]);
    expect(severities(losses(20, 0.899))).toEqual(["medium"]);
  });

  it("reports the share and the median ratio", () => {
    const [f] = trainValInversion.detect(losses(15, 0.8));
    expect(f).toMatchObject({ title: "Validation better than training", recommendation: { category: "data" } });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-18", artifact: "training_artifacts.metrics:val/loss", observed: 0.75, threshold: 0.5, n_points: N, window: [0, 19], values: { median_ratio: 0.8 } });
    expect(f!.evidence[0]!.text).toBe("val/loss is below 0.9 × train/loss on 75 % of 20 evaluations (median ratio 0.8).");
    expect(f!.description).toContain("Dropout, augmentation or epoch-averaged training metrics can explain a small inversion");
  });

  it("is low when declared dropout explains a mild inversion, medium when the median ratio is below 0.5", () => {
    const [mild] = trainValInversion.detect(losses(15, 0.8, { dropout: 0.3 }));
    expect(mild).toMatchObject({ severity: "low" });
    expect(mild!.description).toContain("Training-only regularization (dropout=0.3) explains a small inversion;");
    const [strong] = trainValInversion.detect(losses(15, 0.49, { dropout: 0.3 }));
    expect(strong).toMatchObject({ severity: "medium" });
    expect(strong!.description).toContain("explains a small inversion, but not one this large");
    expect(severities(losses(15, 0.51, { dropout: 0.3 }))).toEqual(["low"]);
    expect(severities(losses(15, 0.8, { dropout: 0 }))).toEqual(["medium"]);
  });

  it("reads a non-positive train loss as no inversion at that point", () => {
    const run = trainingRun({ loss: series(N, () => 0), val_loss: series(N, () => -0.5) });
    expect(trainValInversion.detect(run)).toEqual([]);
  });
});

describe("TH-18 train_val_inversion from the accuracies", () => {
  it("needs a lead above 0.005 on a noiseless accuracy, on more than half of the evaluations", () => {
    expect(severities(accuracies(11, 0.006))).toEqual(["medium"]);
    expect(severities(accuracies(10, 0.006))).toEqual([]);
    expect(severities(accuracies(20, 0.004))).toEqual([]);
  });

  it("reports the share, the margin and the median lead; strong past a median lead of 0.05", () => {
    const [f] = trainValInversion.detect(accuracies(15, 0.04));
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ artifact: "training_artifacts.metrics:val/accuracy", observed: 0.75, threshold: 0.5, n_points: N });
    expect(Number(e.values!.median_lead)).toBeCloseTo(0.04, 10);
    expect(e.text).toContain("exceeds train/accuracy by more than");
    expect(e.text).toContain("on 75 % of 20 evaluations (median lead 0.04)");
    expect(severities(accuracies(15, 0.04, { dropout: 0.2 }))).toEqual(["low"]);
    expect(severities(accuracies(15, 0.06, { dropout: 0.2 }))).toEqual(["medium"]);
  });

  it("raises the margin to 2 SE of a noisy validation accuracy", () => {
    const noisy = (lead: number) =>
      trainingRun({ accuracy: series(N, () => 0.8), val_accuracy: series(N, (i) => 0.8 + lead + (i % 2 ? 0.03 : -0.03)) });
    // Leads of 0.01 and 0.07, all above 0.005 but below 2 SE (σ̂ ≈ 0.05).
    expect(severities(noisy(0.04))).toEqual([]);
    expect(severities(noisy(0.2))).toEqual(["medium"]);
  });

  it("puts both inversions in one finding, more confident than one", () => {
    const run = trainingRun({ loss: series(N, () => 1), val_loss: series(N, () => 0.8), accuracy: series(N, () => 0.8), val_accuracy: series(N, () => 0.84) });
    const [f] = trainValInversion.detect(run);
    expect(f!.evidence).toHaveLength(2);
    expect(f!.confidence).toBeGreaterThan(trainValInversion.detect(losses(20, 0.8))[0]!.confidence);
  });
});
