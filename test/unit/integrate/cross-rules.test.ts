import { describe, expect, it } from "vitest";
import { crossDetectors } from "../../../nodes/integrate/catalog.js";
import { CROSS_RULES, runCrossRules } from "../../../nodes/integrate/rules/index.js";
import { relateSplits, totalVariation } from "../../../nodes/integrate/rules/shift.js";
import { checkpointFacts, checksFacts, datasetFacts, evidenceOf, finding, trainingFacts } from "../../support/cross-evidence.js";

const ids = (ev: ReturnType<typeof evidenceOf>) => runCrossRules(ev).map((f) => f.id);
const only = (ev: ReturnType<typeof evidenceOf>, id: string) => runCrossRules(ev).find((f) => f.id === id);

const stratified = datasetFacts({
  split_strategy: "train/val: stratified 89/11 split of wave 1; test: all of wave 2",
  class_shares_by_split: { train: { a: 0.8, b: 0.2 }, val: { a: 0.79, b: 0.21 }, test: { a: 0.5, b: 0.5 } },
});
const timeSplit = datasetFacts({ split_strategy: "time-based: train = 2024-01..2024-09, validation = 2024-10..2024-12" });

describe("cross-artifact rules", () => {
  it("XA-01: critical when a perfect score meets a failed leakage check, with corroborated confidence", () => {
    const f = only(evidenceOf([finding("training.suspicious_perfection", "medium", 0.7), finding("checks.leakage_failed", "high", 0.75)], { training: trainingFacts({ best_val_accuracy: 0.998 }) }), "cross.score_with_leakage");
    expect(f?.severity).toBe("critical");
    expect(f!.confidence).toBe(0.9);
    expect(f!.evidence.map((e) => e.rule_id)).toEqual(expect.arrayContaining(["XA-01<T", "XA-01"]));
    expect(f!.description).toMatch(/0\.998/);
  });

  it("XA-01: quiet with leakage but an ordinary score, and with a perfect score but no leakage", () => {
    expect(ids(evidenceOf([finding("checks.leakage_failed")], { training: trainingFacts({ best_val_accuracy: 0.81 }) }))).not.toContain("cross.score_with_leakage");
    expect(ids(evidenceOf([finding("training.suspicious_perfection")]))).not.toContain("cross.score_with_leakage");
  });

  it("XA-05: inversion plus overlap; quiet on inversion alone (dropout)", () => {
    expect(ids(evidenceOf([finding("training.train_val_inversion"), finding("dataset.train_test_overlap")]))).toContain("cross.inversion_with_overlap");
    expect(ids(evidenceOf([finding("training.train_val_inversion")]))).toEqual([]);
  });

  it("XA-02: a gap with drift and a time-based validation split is shift", () => {
    const f = only(evidenceOf([finding("training.generalization_gap", "high"), finding("checks.dataset_drift", "high")], { dataset: timeSplit }), "cross.gap_explained_by_shift");
    expect(f?.severity).toBe("high");
    expect(f!.description).toMatch(/different period/);
  });

  it("XA-02 stays quiet and XA-13 fires when validation comes from the training pool and test drifted", () => {
    const found = ids(evidenceOf([finding("training.overfitting"), finding("checks.label_drift", "high")], { dataset: stratified }));
    expect(found).toContain("cross.drift_invisible_to_validation");
    expect(found).not.toContain("cross.gap_explained_by_shift");
  });

  it("XA-13: quiet without drift, and when the split relation is unknown", () => {
    expect(ids(evidenceOf([finding("training.overfitting")], { dataset: stratified }))).toEqual([]);
    expect(ids(evidenceOf([finding("checks.label_drift")], { dataset: datasetFacts() }))).not.toContain("cross.drift_invisible_to_validation");
  });

  it("XA-12: label drift with unseen labels; quiet with either alone", () => {
    expect(ids(evidenceOf([finding("checks.label_drift"), finding("dataset.unseen_labels")]))).toContain("cross.label_shift_new_classes");
    expect(ids(evidenceOf([finding("dataset.unseen_labels")]))).toEqual([]);
  });

  it("XA-03: imbalance with accuracy as the only validation metric; quiet when F1 is logged", () => {
    const imb = finding("dataset.class_imbalance", "high");
    expect(ids(evidenceOf([imb], { training: trainingFacts({ val_quantities: ["loss", "accuracy"] }) }))).toContain("cross.imbalance_accuracy_only");
    expect(ids(evidenceOf([imb], { training: trainingFacts({ val_quantities: ["loss", "accuracy", "f1"] }) }))).not.toContain("cross.imbalance_accuracy_only");
  });

  it("XA-04: accuracy equal to the majority share; quiet when clearly above it", () => {
    const ds = datasetFacts({ majority_share: 0.9 });
    expect(only(evidenceOf([], { dataset: ds, training: trainingFacts({ final_val_accuracy: 0.905 }) }), "cross.majority_class_collapse")?.severity).toBe("critical");
    expect(ids(evidenceOf([], { dataset: ds, training: trainingFacts({ final_val_accuracy: 0.95 }) }))).toEqual([]);
  });

  it("XA-06: non-finite loss with NaN in the data; quiet when the data is clean", () => {
    expect(ids(evidenceOf([finding("training.nonfinite_loss", "critical")], { checks: checksFacts({ nonfinite_columns: ["income"] }) }))).toContain("cross.nan_from_data");
    expect(ids(evidenceOf([finding("training.nonfinite_loss", "critical")], { dataset: datasetFacts() }))).toEqual([]);
  });

  it("XA-07: unnormalized inputs and a stalled run; quiet when training learns", () => {
    expect(ids(evidenceOf([finding("dataset.unnormalized_inputs"), finding("training.no_learning", "high")]))).toContain("cross.unnormalized_and_stuck");
    expect(ids(evidenceOf([finding("dataset.unnormalized_inputs")]))).toEqual([]);
  });

  it("XA-08: label noise with a plateau", () => {
    expect(ids(evidenceOf([finding("dataset.label_noise"), finding("training.plateau")]))).toContain("cross.noisy_labels_ceiling");
    expect(ids(evidenceOf([finding("training.plateau")]))).toEqual([]);
  });

  it("XA-09: many parameters per example with overfitting; quiet for a small model", () => {
    const overfit = finding("training.overfitting");
    expect(ids(evidenceOf([overfit], { checkpoint: checkpointFacts({ num_parameters: 23_500_000 }), dataset: datasetFacts({ n_train: 9429 }) }))).toContain("cross.capacity_vs_data");
    expect(ids(evidenceOf([overfit], { checkpoint: checkpointFacts({ num_parameters: 50_000 }), dataset: datasetFacts({ n_train: 9429 }) }))).not.toContain("cross.capacity_vs_data");
  });

  it("XA-10: last checkpoint kept while the best epoch was much better (high past 5 %)", () => {
    const facts = {
      training: trainingFacts({ last_epoch: 59, best_val_epoch: 23, best_val_loss: 0.55, final_val_loss: 1.18, val_noise: 0.02 }),
      checkpoint: checkpointFacts({ epoch: 59 }),
    };
    const f = only(evidenceOf([finding("training.overfitting")], facts), "cross.saved_wrong_checkpoint");
    expect(f?.severity).toBe("high");
    expect(f!.description).toMatch(/epoch 59.*epoch 23/);
  });

  it("XA-10: quiet when the best checkpoint was kept, or the end is within noise; works on steps", () => {
    const training = trainingFacts({ last_epoch: 59, best_val_epoch: 23, best_val_loss: 0.55, final_val_loss: 1.18 });
    expect(ids(evidenceOf([], { training, checkpoint: checkpointFacts({ epoch: 23 }) }))).toEqual([]);
    const flat = trainingFacts({ last_epoch: 36, best_val_epoch: 30, best_val_loss: 0.415, final_val_loss: 0.42, val_noise: 0.004 });
    expect(ids(evidenceOf([], { training: flat, checkpoint: checkpointFacts({ epoch: 36 }) }))).toEqual([]);
    const steps = trainingFacts({ last_step: 3000, best_val_step: 2000, best_val_loss: 1.218, final_val_loss: 2.08 });
    expect(ids(evidenceOf([], { training: steps, checkpoint: checkpointFacts({ global_step: 3000 }) }))).toContain("cross.saved_wrong_checkpoint");
  });

  it("XA-11: NaN weights after finite losses; quiet when the losses diverged too", () => {
    const nan = finding("checkpoint.nonfinite_weights", "critical");
    expect(ids(evidenceOf([nan], { training: trainingFacts({ losses_finite: true }) }))).toContain("cross.checkpoint_corrupt_after_finite_training");
    expect(ids(evidenceOf([nan], { training: trainingFacts({ losses_finite: false }) }))).toEqual([]);
  });

  it("XA-14: spikes right after the LR peak; quiet for spikes long after it", () => {
    const spikes = finding("training.loss_spikes");
    expect(ids(evidenceOf([spikes], { training: trainingFacts({ lr_peak_step: 300, spike_steps: [320], last_step: 3000 }) }))).toContain("cross.lr_spike_alignment");
    expect(ids(evidenceOf([spikes], { training: trainingFacts({ lr_peak_step: 30, spike_steps: [2180, 2420], last_step: 3000 }) }))).toEqual([]);
  });

  it("head/class mismatch: fires when the head differs from the class count, quiet when equal", () => {
    expect(ids(evidenceOf([], { checkpoint: checkpointFacts({ head_classes: 1000 }), dataset: datasetFacts({ num_classes: 12 }) }))).toContain("cross.head_class_mismatch");
    expect(ids(evidenceOf([], { checkpoint: checkpointFacts({ head_classes: 12 }), dataset: datasetFacts({ num_classes: 12 }) }))).toEqual([]);
  });

  it("CR-10: report rows or columns differ from the statistics; quiet when they agree within 1 %", () => {
    const ds = datasetFacts({ n_train: 10_000, n_test: 2_000, columns: ["age", "income"] });
    const f = only(evidenceOf([], { dataset: ds, checks: checksFacts({ row_counts: { train: 8_000, test: 2_000 }, columns_checked: ["age", "zip"] }) }), "cross.report_data_mismatch");
    expect(f?.severity).toBe("medium");
    expect(f!.description).toMatch(/train: the report saw 8,000 rows, the statistics 10,000 \(20\.0 % apart\); the report checked column\(s\) the statistics do not list: zip/);
    expect(ids(evidenceOf([], { dataset: ds, checks: checksFacts({ row_counts: { train: 10_050, test: 2_000 }, columns_checked: ["age"] }) }))).toEqual([]);
  });

  it("produces nothing on an empty or healthy picture", () => {
    expect(runCrossRules(evidenceOf([]))).toEqual([]);
    expect(runCrossRules(evidenceOf([finding("dataset.missing_values", "low")], { training: trainingFacts(), dataset: datasetFacts(), checkpoint: checkpointFacts() }))).toEqual([]);
  });

  it("documents every rule once, with a cross.* id", () => {
    expect(crossDetectors.length).toBeGreaterThanOrEqual(CROSS_RULES.length);
    expect(new Set(crossDetectors.map((d) => d.id)).size).toBe(crossDetectors.length);
    for (const d of crossDetectors) expect(d.id).toMatch(/^cross\.[a-z_]+$/);
  });
});

describe("relateSplits", () => {
  it("reads a stratified validation split as drawn from the training pool", () => {
    expect(relateSplits({ dataset: stratified })).toMatchObject({ valFromTrainPool: true, valShifted: false });
  });
  it("reads a time-based split as a shifted validation set", () => {
    expect(relateSplits({ dataset: timeSplit })).toMatchObject({ valFromTrainPool: false, valShifted: true });
  });
  it("computes the total variation distance of class mixes", () => {
    expect(totalVariation({ a: 0.5, b: 0.5 }, { a: 0.5, b: 0.5 })).toBe(0);
    expect(totalVariation({ a: 1 }, { b: 1 })).toBe(1);
  });
});
