import { describe, expect, it } from "vitest";
import { classCount, findChanceLevel } from "../../../nodes/training/chance.js";
import { chanceLevel } from "../../../nodes/training/detectors/chance-level.js";
import { earlyStopOpportunity } from "../../../nodes/training/detectors/early-stop-opportunity.js";
import { explodingGradients } from "../../../nodes/training/detectors/exploding-gradients.js";
import { divergence } from "../../../nodes/training/detectors/divergence.js";
import { lrTooHigh } from "../../../nodes/training/detectors/lr-too-high.js";
import { plateau } from "../../../nodes/training/detectors/plateau.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

const rng = new Prng(23);
const LN4 = Math.log(4);

describe("classCount: K from wherever the run states it", () => {
  it("reads num_classes, an HF config's id2label, per-class metric names, then a first loss at ln K", () => {
    expect(classCount(trainingRun({ loss: [1, 0.5] }, { params: { num_classes: 10 } }))).toEqual({ k: 10, source: "params" });
    expect(classCount(trainingRun({ loss: [1, 0.5] }, { params: { id2label: { 0: "a", 1: "b", 2: "c" } } }))).toEqual({ k: 3, source: "params" });
    expect(classCount(trainingRun({ loss: [1, 0.5], val_acc_class_0: [0.5, 0.6], val_acc_class_4: [0.5, 0.6] }))).toEqual({ k: 5, source: "metric names" });
    expect(classCount(trainingRun({ loss: [Math.log(7) * 1.01, 1.2, 0.9] }))).toEqual({ k: 7, source: "initial loss" });
  });

  it("reads no K from a first loss between two ln K", () => {
    // ln 2 = 0.693 and ln 3 = 1.099: 0.9 is neither.
    expect(classCount(trainingRun({ loss: [0.9, 0.7, 0.5] }))).toBeNull();
  });
});

describe("training.chance_level", () => {
  const atChance = (n: number) => series(n, () => 0.25 + 0.01 * rng.normal());

  it("is high for a run that explodes, drops back and sits at ln K with chance accuracy (not a plateau)", () => {
    const loss = series(60, (i) => (i < 5 ? 200 / (i + 1) : LN4 + 0.01 * rng.normal()));
    const run = trainingRun({ train_loss: loss, val_loss: series(60, (i) => (i < 5 ? 100 : LN4 + 0.02 * rng.normal())), val_acc: atChance(60) }, { params: { num_classes: 4 } });
    const [f] = chanceLevel.detect(run);
    expect(f).toMatchObject({ id: "training.chance_level", severity: "high" });
    expect(f!.title).toMatch(/never left chance/);
    expect(plateau.detect(run)).toEqual([]);
    expect(earlyStopOpportunity.detect(run)).toEqual([]);
  });

  it("says the model ended at chance after learning first", () => {
    const acc = series(40, (i) => (i < 15 ? 0.25 + 0.04 * i : 0.25 + 0.01 * rng.normal()));
    const run = trainingRun({ val_accuracy: acc, loss: series(40, (i) => (i < 15 ? LN4 - 0.05 * i : LN4)) }, { params: { num_labels: 4 } });
    const [f] = chanceLevel.detect(run);
    expect(f!.title).toMatch(/ended at chance/);
    expect(f!.description).toMatch(/after reaching/);
  });

  it("is silent when any accuracy is clearly above chance (an overfit model's val accuracy may fall to chance)", () => {
    const run = trainingRun({ val_accuracy: atChance(30), accuracy: series(30, (i) => 0.3 + 0.02 * i), loss: series(30, (i) => LN4 - 0.04 * i) }, { params: { num_classes: 4 } });
    expect(findChanceLevel(run)).toBeNull();
  });

  it("judges a loss alone only with K stated, not with K read from that same loss", () => {
    const flat = series(30, () => LN4 + 0.01 * rng.normal());
    expect(chanceLevel.detect(trainingRun({ loss: flat }))).toEqual([]);
    expect(chanceLevel.detect(trainingRun({ loss: flat }, { params: { num_classes: 4 } }))).toHaveLength(1);
    // With an accuracy at 1/K to agree, K from the initial loss is enough.
    expect(chanceLevel.detect(trainingRun({ loss: [LN4, ...flat], val_accuracy: atChance(31) }))).toHaveLength(1);
  });

  it("is silent on a healthy run", () => {
    const run = trainingRun({ loss: series(50, (i) => LN4 * Math.exp(-i / 15) + 0.2), val_accuracy: series(50, (i) => 0.9 - 0.65 * Math.exp(-i / 10)) }, { params: { num_classes: 4 } });
    expect(findChanceLevel(run)).toBeNull();
  });
});

describe("chance level read from where the run ended, with no class count stated", () => {
  // A first-epoch blow-up (no K from the initial loss), then the loss at ln 4 and accuracy at 1/4.
  const blownUp = (final: number, n = 30) => series(n, (i) => (i === 0 ? 35 : i === 1 ? 3 : final + 0.005 * rng.normal()));
  const accAt = (p: number, n = 30) => series(n, (i) => (i < 2 ? 0.35 : p + 0.005 * rng.normal()));

  it("reads K = 4 from a final loss within 5 % of ln 4 and an accuracy at 1/4 (two readings of one K)", () => {
    const run = trainingRun({ train_loss: blownUp(LN4 * 1.04), val_loss: blownUp(LN4), val_acc: accAt(0.25) });
    expect(classCount(run)).toEqual({ k: 4, source: "final loss and accuracy" });
    const [f] = chanceLevel.detect(run);
    expect(f).toMatchObject({ id: "training.chance_level", severity: "high" });
    expect(plateau.detect(run)).toEqual([]);
  });

  it("reads no K when the loss ends 6 % off ln K, or the accuracy does not agree", () => {
    expect(classCount(trainingRun({ train_loss: blownUp(LN4 * 1.06), val_acc: accAt(0.25) }))).toBeNull();
    // ln 4 but accuracy at 1/3: the two readings disagree.
    expect(classCount(trainingRun({ train_loss: blownUp(LN4), val_acc: accAt(1 / 3) }))).toBeNull();
  });

  it("is silent on a run a little above chance (accuracy 0.25 + 0.04 with quiet noise)", () => {
    const run = trainingRun({ train_loss: blownUp(LN4 * 0.99), val_acc: accAt(0.29) });
    expect(findChanceLevel(run)).toBeNull();
    expect(chanceLevel.detect(trainingRun({ train_loss: blownUp(LN4 * 0.99), val_acc: accAt(0.275) }))).toHaveLength(1);
  });

  it("judges the end's K when a first loss near ln 6 (an epoch's end, not the initialization) is not confirmed", () => {
    const LN5 = Math.log(5);
    const loss = series(28, (i) => (i === 0 ? Math.log(6) * 1.01 : LN5 * 1.03 + 0.005 * rng.normal()));
    const run = trainingRun({ train_loss: loss, val_acc: series(28, () => 0.2 + 0.003 * rng.normal()) });
    expect(classCount(run)).toMatchObject({ k: 6, source: "initial loss" });
    expect(findChanceLevel(run)?.classes).toEqual({ k: 5, source: "final loss and accuracy" });
    // No second K agreeing at the end: nothing is claimed.
    expect(findChanceLevel(trainingRun({ train_loss: loss, val_acc: series(28, () => 0.3 + 0.003 * rng.normal()) }))).toBeNull();
  });

  it("is silent on a noisy healthy run whose loss passes ln K on its way down", () => {
    const run = trainingRun({ train_loss: series(40, (i) => 3 * Math.exp(-i / 8) + 0.3 + 0.05 * rng.normal()), val_acc: series(40, (i) => 0.85 - 0.6 * Math.exp(-i / 6) + 0.02 * rng.normal()) });
    expect(findChanceLevel(run)).toBeNull();
  });
});

describe("training.divergence: a loss far above ln K is worse than predicting the prior", () => {
  const ending = (final: number) => series(30, (i) => (i < 3 ? 40 / (i + 1) : final + 0.01 * rng.normal()));

  it("is high when the loss ends above 1.5 ln K with K stated, silent just below", () => {
    const [f] = divergence.detect(trainingRun({ loss: ending(1.55 * LN4) }, { params: { num_classes: 4 } }));
    expect(f).toMatchObject({ id: "training.divergence", severity: "high" });
    expect(f!.title).toMatch(/worse than predicting the class prior/);
    expect(divergence.detect(trainingRun({ loss: ending(1.45 * LN4) }, { params: { num_classes: 4 } }))).toEqual([]);
  });

  it("needs K: a high loss of a regression run (no class count) is not judged against ln K", () => {
    expect(divergence.detect(trainingRun({ loss: ending(1.55 * LN4) }))).toEqual([]);
  });
});

describe("learning rate and gradients read as the frameworks log them", () => {
  it("takes the optimizer from Lightning's LearningRateMonitor name (lr-Adam) to judge the learning rate", () => {
    const run = trainingRun({ loss: series(30, (i) => 1.4 - 0.01 * i), "lr-Adam": series(30, () => 0.3) });
    expect(lrTooHigh.detect(run)[0]).toMatchObject({ id: "training.lr_too_high", severity: "medium" });
    expect(lrTooHigh.detect(trainingRun({ loss: series(30, (i) => 1.4 - 0.01 * i), "lr-SGD": series(30, () => 0.3) }))).toEqual([]);
  });

  it("finds a loss that grows multiplicatively (1 → hundreds, swinging 10×) as a divergence", () => {
    const loss = series(60, (i) => Math.exp(0.1 * i + 1.2 * rng.normal()));
    expect(divergence.detect(trainingRun({ loss }))[0]).toMatchObject({ id: "training.divergence" });
  });

  it("does not call a grad norm that rises 30× while the loss leaves its plateau and then settles an explosion", () => {
    const grad = series(300, (i) => (0.05 + 1.5 / (1 + Math.exp(-(i - 60) / 10))) * Math.exp(0.1 * rng.normal()));
    const loss = series(300, (i) => LN4 - 1.0 / (1 + Math.exp(-(i - 60) / 10)));
    expect(explodingGradients.detect(trainingRun({ loss, grad_norm: grad }))).toEqual([]);
    // A jump to a new level within a few steps, as a real Trainer run shows it: learning while the loss falls, an
    // explosion while it climbs.
    const jump = series(300, (i) => (i < 60 ? 0.1 : 1.5) * Math.exp(0.1 * rng.normal()));
    expect(explodingGradients.detect(trainingRun({ loss, grad_norm: jump }))).toEqual([]);
    const climbing = series(300, (i) => (i < 60 ? LN4 : LN4 + (i - 60) / 50));
    expect(explodingGradients.detect(trainingRun({ loss: climbing, grad_norm: jump }))[0]).toMatchObject({ severity: "high" });
    const growing = series(300, (i) => 0.05 * Math.exp(i / 60) * Math.exp(0.1 * rng.normal()));
    expect(explodingGradients.detect(trainingRun({ loss, grad_norm: growing }))[0]).toMatchObject({ severity: "high" });
  });
});

describe("pandas shapes of a sparse Lightning metrics.csv", () => {
  // metrics.csv: step rows carry train_loss_step, epoch rows val_loss; pandas fills the rest with NaN.
  const rows = [
    { epoch: 0, step: 9, train_loss_step: 1.2, val_loss: Number.NaN },
    { epoch: 0, step: 9, train_loss_step: Number.NaN, val_loss: 1.1 },
    { epoch: 1, step: 19, train_loss_step: 0.9, val_loss: Number.NaN },
    { epoch: 1, step: 19, train_loss_step: Number.NaN, val_loss: 0.95 },
    { epoch: 2, step: 29, train_loss_step: 0.8, val_loss: Number.NaN },
    { epoch: 2, step: 29, train_loss_step: Number.NaN, val_loss: 0.9 },
  ];
  const list = Object.fromEntries(Object.keys(rows[0]!).map((k) => [k, rows.map((r) => r[k as keyof (typeof rows)[0]])]));

  it.each([
    ["to_dict('records')", rows],
    ["to_dict('list')", list],
  ])("reads %s: empty cells are gaps, not NaN losses, and step is the axis", (_, metrics) => {
    const run = parseTrainingArtifact({ metrics });
    expect(Array.from(run.series.get("train/loss@step")!.values)).toEqual([1.2, 0.9, 0.8]);
    expect(Array.from(run.series.get("val/loss")!.values)).toEqual([1.1, 0.95, 0.9]);
    expect(Array.from(run.series.get("val/loss")!.steps)).toEqual([9, 19, 29]);
    expect(run.series.has("epoch")).toBe(false);
  });

  it("keeps a NaN the loss really turned into: a trailing run longer than the column's gaps", () => {
    const nan = [...rows, ...[39, 49, 59].flatMap((step) => [{ epoch: 3, step, train_loss_step: Number.NaN, val_loss: Number.NaN }])];
    const values = Array.from(parseTrainingArtifact({ metrics: nan }).series.get("train/loss@step")!.values);
    expect(values.slice(0, 3)).toEqual([1.2, 0.9, 0.8]);
    expect(values.slice(3).every(Number.isNaN)).toBe(true);
    // A dense column (History rows) keeps its NaN too.
    const dense = parseTrainingArtifact({ metrics: [{ loss: 1 }, { loss: 0.8 }, { loss: Number.NaN }] }).series.get("train/loss")!;
    expect(Number.isNaN(dense.values[2]!)).toBe(true);
  });
});
