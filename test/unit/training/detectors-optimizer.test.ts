import { describe, expect, it } from "vitest";
import { ampOverflow } from "../../../nodes/training/detectors/amp-overflow.js";
import { explodingGradients } from "../../../nodes/training/detectors/exploding-gradients.js";
import { lrSchedule } from "../../../nodes/training/detectors/lr-schedule.js";
import { lrTooHigh } from "../../../nodes/training/detectors/lr-too-high.js";
import { lrTooLow } from "../../../nodes/training/detectors/lr-too-low.js";
import { overClipping } from "../../../nodes/training/detectors/over-clipping.js";
import { vanishingGradients } from "../../../nodes/training/detectors/vanishing-gradients.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { Prng } from "../../support/prng.js";
import { faultyHistory } from "../../support/synthetic-faults.js";
import { healthyHistory } from "../../support/synthetic-history.js";
import { sampleTrainingArtifact, series, trainingRun } from "../../support/training-run.js";

const rng = new Prng(7);
const sample = (name: string) => parseTrainingArtifact(sampleTrainingArtifact(name));
const healthy = (kind: Parameters<typeof healthyHistory>[1], from = 1, to = 200) =>
  Array.from({ length: Math.ceil((to - from) / 7) }, (_, i) => parseTrainingArtifact(healthyHistory(from + 7 * i, kind)));

describe("TH-08 lr_too_high", () => {
  it("is high when the loss spikes within the first 10 % of steps", () => {
    const loss = series(400, (i) => (1 + 2 * Math.exp(-i / 80)) * Math.exp(0.02 * rng.normal()));
    loss[25] = loss[25]! * 3;
    loss[35] = loss[35]! * 3;
    const [f] = lrTooHigh.detect(trainingRun({ loss }));
    expect(f).toMatchObject({ id: "training.lr_too_high", severity: "high" });
  });

  it("is medium for an Adam peak learning rate above 1e-2 alone", () => {
    const run = trainingRun({ loss: series(30, (i) => 2 - 0.03 * i), lr: series(30, () => 0.05) }, { params: { optimizer: "AdamW" } });
    expect(lrTooHigh.detect(run)[0]).toMatchObject({ severity: "medium" });
  });

  it("stays quiet on late instability (llm-finetune-hf) and on SGD at 0.1", () => {
    expect(lrTooHigh.detect(sample("llm-finetune-hf"))).toEqual([]);
    expect(lrTooHigh.detect(trainingRun({ loss: series(30, (i) => 2 - 0.03 * i), lr: series(30, () => 0.1) }, { params: { optimizer: "SGD" } }))).toEqual([]);
  });
});

describe("TH-09 lr_too_low", () => {
  it("is medium when the loss falls in a straight line with a tiny Adam learning rate", () => {
    const [f] = lrTooLow.detect(parseTrainingArtifact(faultyHistory(3, "lr_too_low", 0.9)));
    expect(f).toMatchObject({ id: "training.lr_too_low", severity: "medium" });
  });

  it("stays quiet on a curve that is still improving but flattening (healthy convergence)", () => {
    for (const run of healthy("standard")) expect(lrTooLow.detect(run)).toEqual([]);
  });
});

describe("TH-10 vanishing_gradients", () => {
  it("is high when the gradient norm collapses by > 1000× while the loss stalls", () => {
    const [f] = vanishingGradients.detect(parseTrainingArtifact(faultyHistory(5, "vanishing_gradients", 0.9)));
    expect(f).toMatchObject({ id: "training.vanishing_gradients", severity: "high" });
  });

  it("stays quiet when grad norms shrink 10–100× during healthy training", () => {
    for (const run of healthy("llm_steps")) expect(vanishingGradients.detect(run)).toEqual([]);
  });
});

describe("TH-11 exploding_gradients", () => {
  it("is critical for the NaN grad_norm of llm-finetune-hf and lists the spikes", () => {
    const [f] = explodingGradients.detect(sample("llm-finetune-hf"));
    expect(f).toMatchObject({ id: "training.exploding_gradients", severity: "critical" });
    expect(f!.evidence[0]!.text).toContain("step 2610");
    expect(f!.evidence[1]!.text).toMatch(/2180, 2420/);
  });

  it("is high for finite spikes above 10× the rolling median", () => {
    expect(explodingGradients.detect(parseTrainingArtifact(faultyHistory(8, "exploding_gradients", 0.7)))[0]).toMatchObject({ severity: "high" });
  });

  it("stays quiet on log-normal grad-norm noise", () => {
    for (const run of healthy("llm_steps")) expect(explodingGradients.detect(run)).toEqual([]);
  });
});

describe("TH-12 over_clipping", () => {
  it("is medium when nearly every logged norm is at or above max_grad_norm", () => {
    const [f] = overClipping.detect(trainingRun({ grad_norm: series(100, () => 2 + rng.next()) }, { params: { max_grad_norm: 1 } }));
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.evidence[0]!.observed).toBe(1);
  });

  it("stays quiet when clipping only catches the early large norms (llm-finetune-hf: ~30 % of steps)", () => {
    expect(overClipping.detect(sample("llm-finetune-hf"))).toEqual([]);
  });
});

describe("TH-20 lr_schedule", () => {
  it("is medium for five ReduceLROnPlateau halvings (tabular-drift-evidently)", () => {
    const [f] = lrSchedule.detect(sample("tabular-drift-evidently"));
    expect(f).toMatchObject({ id: "training.lr_schedule", severity: "medium" });
    expect(f!.evidence[0]!.observed).toBe(5);
  });

  it("is low for a warm-up longer than 10 % of the run and for a constant lr with a scheduler configured", () => {
    const warm = series(100, (i) => (i < 30 ? (i + 1) / 30 : 1 - (i - 30) / 80) * 1e-3);
    expect(lrSchedule.detect(trainingRun({ lr: warm }))[0]).toMatchObject({ severity: "low" });
    const constant = lrSchedule.detect(trainingRun({ lr: series(20, () => 1e-3) }, { params: { lr_scheduler_type: "cosine" } }));
    expect(constant[0]!.evidence[0]!.text).toMatch(/scheduler is configured \(cosine\)/);
  });

  it("stays quiet on cyclic, step-decay, warm-up + cosine and linear-decay schedules", () => {
    for (const run of [...healthy("cyclic_lr"), ...healthy("plateau_then_drop"), sample("llm-finetune-hf"), sample("full-image-classification"), sample("tabular-healthy")]) {
      expect(lrSchedule.detect(run)).toEqual([]);
    }
  });
});

describe("TH-21 amp_overflow", () => {
  it("is medium when the loss scale collapses to ≤ 1, and for fp16 with a NaN grad norm (llm-finetune-hf)", () => {
    expect(ampOverflow.detect(parseTrainingArtifact(faultyHistory(9, "amp_overflow", 0.8)))[0]).toMatchObject({ severity: "medium" });
    expect(ampOverflow.detect(sample("llm-finetune-hf"))[0]!.evidence[0]!.text).toMatch(/fp16 .* grad_norm is NaN at step 2610/);
  });

  it("counts skipped steps from overflow log lines against the run length", () => {
    const logs = Array.from({ length: 12 }, (_, i) => `Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to ${2 ** (15 - i)}`);
    expect(ampOverflow.detect(trainingRun({ loss: series(100, (i) => 2 - 0.01 * i) }, { logs }))).toHaveLength(1);
    expect(ampOverflow.detect(trainingRun({ loss: series(1000, (i) => 2 - 0.001 * i) }, { logs }))).toEqual([]);
  });

  it("stays quiet on healthy dynamic loss scaling (a few halvings, never near 1)", () => {
    for (const run of healthy("llm_steps")) expect(ampOverflow.detect(run)).toEqual([]);
  });
});
