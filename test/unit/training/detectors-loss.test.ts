import { describe, expect, it } from "vitest";
import type { Finding } from "../../../domain/result.js";
import { divergence } from "../../../nodes/training/detectors/divergence.js";
import { initLossSanity } from "../../../nodes/training/detectors/init-loss.js";
import { lossSpikes } from "../../../nodes/training/detectors/loss-spikes.js";
import { noLearning } from "../../../nodes/training/detectors/no-learning.js";
import { nonfiniteLoss } from "../../../nodes/training/detectors/nonfinite-loss.js";
import { oscillation } from "../../../nodes/training/detectors/oscillation.js";
import { plateau } from "../../../nodes/training/detectors/plateau.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { Prng } from "../../support/prng.js";
import { faultyHistory } from "../../support/synthetic-faults.js";
import { healthyHistory } from "../../support/synthetic-history.js";
import { sampleTrainingArtifact, series, trainingRun } from "../../support/training-run.js";

const rng = new Prng(42);
/** A decaying loss with multiplicative noise, as an epoch-level history. */
const decaying = (n: number, noise = 0.01, floor = 0.3) => series(n, (i) => (floor + 2 * Math.exp(-i / (n / 6))) * Math.exp(noise * rng.normal()));
const only = (findings: Finding[], id: string) => findings.filter((f) => f.id === id);

describe("TH-01 nonfinite_loss", () => {
  it("is critical at the first NaN, Inf or exploded loss, with its step", () => {
    const loss = decaying(30);
    loss[17] = Number.NaN;
    const [f] = nonfiniteLoss.detect(trainingRun({ loss, val_loss: decaying(30) }));
    expect(f).toMatchObject({ id: "training.nonfinite_loss", severity: "critical" });
    expect(f!.evidence[0]).toMatchObject({ window: [17, 29], values: { first_bad_step: 17, bad_points: 1 } });
    expect(f!.confidence).toBeLessThan(1);
    expect(nonfiniteLoss.detect(trainingRun({ loss: [2, 1.5, 2e5, 1] }))).toHaveLength(1);
  });

  it("reports a log line saying the loss became NaN", () => {
    const [f] = nonfiniteLoss.detect(trainingRun({ loss: decaying(10) }, { logs: ["step 120: loss is nan, skipping"] }));
    expect(f!.evidence[0]!.artifact).toBe("training_artifacts.logs");
  });

  it("leads with the earliest non-finite step across the loss series, not the first series listed", () => {
    // Lightning logs train_loss_step every 10 steps and train_loss_epoch once per epoch: the step loss breaks first.
    const run = trainingRun({ train_loss_step: [[9, 0.6], [19, 0.5], [29, Number.NaN], [39, Number.NaN]], train_loss_epoch: [[39, Number.NaN]] });
    expect([...run.series.keys()][0]).toBe("train/loss@epoch");
    const [f] = nonfiniteLoss.detect(run);
    expect(f!.description).toMatch(/^train\/loss@step is NaN at step 29 /);
    expect(f!.evidence.map((e) => e.values?.first_bad_step)).toEqual([29, 39]);
    // tabular-nan-features: train_loss_step is NaN from step 419, the epoch aggregate and val_loss only at 710.
    const [sample] = nonfiniteLoss.detect(parseTrainingArtifact(sampleTrainingArtifact("tabular-nan-features")));
    expect(sample!.description).toMatch(/step 419\b/);
    expect(sample!.evidence[0]).toMatchObject({ artifact: "training_artifacts.metrics:train/loss@step", values: { first_bad_step: 419 } });
  });

  it("stays quiet on a non-finite gradient norm with finite losses (that is TH-11)", () => {
    expect(nonfiniteLoss.detect(parseTrainingArtifact(sampleTrainingArtifact("llm-finetune-hf")))).toEqual([]);
  });
});

describe("TH-02 divergence", () => {
  it("is high when the loss climbs back well above its minimum, critical above its start", () => {
    const climbs = series(40, (i) => (i < 20 ? 2 - 0.08 * i : 0.4 + 0.06 * (i - 20)) * Math.exp(0.01 * rng.normal()));
    expect(divergence.detect(trainingRun({ loss: climbs }))[0]).toMatchObject({ severity: "high" });
    const above = series(40, (i) => (i < 10 ? 2 - 0.1 * i : 1 + 0.15 * (i - 10)) * Math.exp(0.01 * rng.normal()));
    expect(divergence.detect(trainingRun({ loss: above }))[0]).toMatchObject({ severity: "critical" });
  });

  it("stays quiet on cyclic-learning-rate runs whose loss rises and falls with the lr", () => {
    for (let seed = 4; seed < 200; seed += 7) expect(divergence.detect(parseTrainingArtifact(healthyHistory(seed, "cyclic_lr")))).toEqual([]);
  });
});

describe("TH-03 loss_spikes", () => {
  it("finds the unrecovered spikes of the llm-finetune-hf sample from step 2180 (high)", () => {
    const [f] = lossSpikes.detect(parseTrainingArtifact(sampleTrainingArtifact("llm-finetune-hf")));
    expect(f).toMatchObject({ id: "training.loss_spikes", severity: "high" });
    expect(f!.evidence[0]!.values).toMatchObject({ first_unrecovered_step: 2180 });
    expect(f!.evidence[0]!.text).toContain("1130");
  });

  it("is medium for a single spike that recovers", () => {
    const loss = series(300, (i) => (1 + 2 * Math.exp(-i / 60)) * Math.exp(0.03 * rng.normal()));
    loss[150] = loss[150]! * 2.5;
    const [f] = lossSpikes.detect(trainingRun({ loss }));
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.evidence[0]!.values).toMatchObject({ spikes: 1, unrecovered: 0 });
  });

  it("stays quiet on noisy healthy step-level LLM losses, at most noting a single small blip (low)", () => {
    for (let seed = 6; seed < 300; seed += 7) {
      for (const f of lossSpikes.detect(parseTrainingArtifact(healthyHistory(seed, "llm_steps")))) expect(f.severity).toBe("low");
    }
  });
});

describe("TH-04 no_learning", () => {
  it("is high when the loss stays flat", () => {
    const flat = series(30, () => 2.3 * Math.exp(0.005 * rng.normal()));
    expect(noLearning.detect(trainingRun({ loss: flat }))[0]).toMatchObject({ id: "training.no_learning", severity: "high" });
  });

  it("stays quiet on a slow but real improvement", () => {
    const slow = series(30, (i) => (2.3 - 0.01 * i) * Math.exp(0.002 * rng.normal()));
    expect(noLearning.detect(trainingRun({ loss: slow }))).toEqual([]);
  });
});

describe("TH-05 init_loss_sanity", () => {
  it("flags a first loss far above ln K", () => {
    const [f] = initLossSanity.detect(trainingRun({ loss: [12, 3, 2, 1.5, 1.2] }, { params: { num_classes: 10 } }));
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.evidence[0]!.values).toMatchObject({ num_classes: 10 });
  });

  it("flags a step-0 loss far below ln K, but not an epoch-averaged first log", () => {
    const stepLevel = series(200, (i) => 0.3 + 0.2 * Math.exp(-i / 50));
    expect(initLossSanity.detect(trainingRun({ loss: stepLevel }, { params: { num_classes: 100 } }))).toHaveLength(1);
    const perEpoch = parseTrainingArtifact({ metrics: Array.from({ length: 10 }, (_, e) => ({ epoch: e, loss: 0.3 + 0.2 * Math.exp(-e) })), params: { num_classes: 100 } });
    expect(initLossSanity.detect(perEpoch)).toEqual([]);
  });

  it("needs the number of classes", () => {
    expect(initLossSanity.detect(trainingRun({ loss: [12, 3, 2] }))).toEqual([]);
  });
});

describe("TH-06 plateau", () => {
  it("is medium when the training loss stalls early at a high level", () => {
    const stalls = series(60, (i) => (i < 12 ? 2.3 - 0.1 * i : 1.1) * Math.exp(0.004 * rng.normal()));
    const [f] = plateau.detect(trainingRun({ loss: stalls }));
    expect(f).toMatchObject({ id: "training.plateau", severity: "medium" });
  });

  it("stays quiet on plateau-then-drop runs, where the loss falls again after an lr step", () => {
    for (let seed = 3; seed < 300; seed += 7) {
      expect(only(plateau.detect(parseTrainingArtifact(healthyHistory(seed, "plateau_then_drop"))), "training.plateau").filter((f) => f.severity !== "low")).toEqual([]);
    }
  });
});

describe("TH-07 oscillation", () => {
  it("is medium when late losses swing far around their trend", () => {
    expect(oscillation.detect(parseTrainingArtifact(faultyHistory(11, "oscillation", 0.9)))[0]).toMatchObject({ severity: "medium" });
  });

  it("needs more than small-validation-set noise", () => {
    for (let seed = 1; seed < 300; seed += 7) expect(oscillation.detect(parseTrainingArtifact(healthyHistory(seed, "small_val")))).toEqual([]);
  });
});
