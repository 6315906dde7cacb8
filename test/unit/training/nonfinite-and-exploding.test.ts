import { describe, expect, it } from "vitest";
import { MAX_CONFIDENCE } from "../../../nodes/findings.js";
import { explodingGradients } from "../../../nodes/training/detectors/exploding-gradients.js";
import { nonfiniteLoss } from "../../../nodes/training/detectors/nonfinite-loss.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * What TH-01 and TH-11 report beyond firing (detectors-loss and detectors-optimizer test that they fire): the
 * evidence numbers, which series leads, the confidence, and the spike and growth rules of TH-11 at their edges.
 */

const falling = (n: number) => series(n, (i) => 2 - i / (2 * n));

describe("TH-01 nonfinite_loss evidence", () => {
  it("counts every bad point of a loss and reports the first, with the run's end as the window", () => {
    const loss = falling(30);
    loss[17] = Number.NaN;
    loss[20] = Number.POSITIVE_INFINITY;
    loss[25] = 3e5;
    const [f] = nonfiniteLoss.detect(trainingRun({ loss }));
    expect(f).toMatchObject({ severity: "critical", confidence: MAX_CONFIDENCE, title: "Loss became non-finite" });
    expect(f!.evidence).toHaveLength(1);
    expect(f!.evidence[0]).toMatchObject({
      rule_id: "TH-01",
      artifact: "training_artifacts.metrics:train/loss",
      window: [17, 29],
      observed: "NaN",
      threshold: "finite and < 1e5",
      n_points: 30,
      values: { first_bad_step: 17, bad_points: 3 },
    });
    expect(f!.evidence[0]!.text).toBe("train/loss is NaN at step 17 (3 of 30 points non-finite or ≥ 1e5).");
    expect(f!.description).toBe("train/loss is NaN at step 17 (3 of 30 points non-finite or ≥ 1e5): training diverged numerically, so every result after that point is invalid.");
  });

  it("takes a loss of −1e5 or below as exploded too, and leaves other quantities alone", () => {
    const at = (v: number) => nonfiniteLoss.detect(trainingRun({ loss: falling(10).map((x, i) => (i === 5 ? v : x)) }));
    expect(at(-1e5)).toHaveLength(1);
    expect(at(-99_999)).toEqual([]);
    expect(at(Number.NEGATIVE_INFINITY)[0]!.evidence[0]!.observed).toBe("-Infinity");
    expect(nonfiniteLoss.detect(trainingRun({ loss: falling(10), val_accuracy: series(10, (i) => (i === 3 ? Number.NaN : 0.5)) }))).toEqual([]);
  });

  it("leads with the series that broke first and lists each broken loss", () => {
    const train = falling(20);
    const val = falling(20);
    train[15] = Number.NaN;
    val[8] = Number.NaN;
    const [f] = nonfiniteLoss.detect(trainingRun({ train_loss: train, val_loss: val }));
    expect(f!.evidence.map((e) => [e.artifact, e.values?.first_bad_step])).toEqual([
      ["training_artifacts.metrics:val/loss", 8],
      ["training_artifacts.metrics:train/loss", 15],
    ]);
    expect(f!.description).toMatch(/^val\/loss is NaN at step 8 /);
  });

  it("from the logs alone: the count, the first line (1-based) and a lower confidence", () => {
    const run = trainingRun({ loss: falling(10) }, { logs: ["epoch 1", "step 120: loss is nan, skipping", "step 130: loss is nan, skipping"] });
    const [f] = nonfiniteLoss.detect(run);
    expect(f).toMatchObject({ severity: "critical", confidence: 0.8 });
    expect(f!.description).toContain("The training logs report a NaN/Inf loss");
    expect(f!.evidence).toHaveLength(1);
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.logs", observed: 2, threshold: 0 });
    expect(f!.evidence[0]!.text).toContain("2 time(s), first at line 2: \"step 120: loss is nan, skipping\"");
  });

  it("keeps the metrics' confidence and description when the logs agree", () => {
    const loss = falling(10);
    loss[4] = Number.NaN;
    const [f] = nonfiniteLoss.detect(trainingRun({ loss }, { logs: ["loss is nan"] }));
    expect(f!.confidence).toBe(MAX_CONFIDENCE);
    expect(f!.evidence.map((e) => e.artifact)).toEqual(["training_artifacts.metrics:train/loss", "training_artifacts.logs"]);
    expect(f!.description).toMatch(/^train\/loss is NaN at step 4 /);
  });
});

describe("TH-11 exploding_gradients", () => {
  /** A log-flat gradient norm of 1 (a small fixed wiggle) with a spike of `factor` at step 50, beside a falling loss. */
  const spiked = (factor: number, n = 100) => {
    const g = series(n, (i) => (i % 2 ? 1.02 : 0.98));
    g[50] = factor;
    return trainingRun({ grad_norm: g, loss: falling(n) });
  };

  it("fires for a spike just above 10× the rolling median and not just below", () => {
    const [f] = explodingGradients.detect(spiked(11));
    expect(f).toMatchObject({ severity: "high", title: "Exploding gradients" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-11", threshold: 10, values: { spikes: 1 }, window: [50, 50], n_points: 100 });
    expect(Number(e.observed)).toBeGreaterThan(10);
    expect(Number(e.observed)).toBeLessThan(11.5);
    expect(e.text).toContain("1 spike(s) above 10× the rolling median, at steps 50;");
    expect(explodingGradients.detect(spiked(9))).toEqual([]);
  });

  it("needs 20 logged norms to judge spikes", () => {
    expect(explodingGradients.detect(spiked(100, 20))).toHaveLength(1);
    const short = series(19, (i) => (i % 2 ? 1.02 : 0.98));
    short[10] = 100;
    expect(explodingGradients.detect(trainingRun({ grad_norm: short, loss: falling(19) }))).toEqual([]);
  });

  it("is critical with the first non-finite norm, its step and the count", () => {
    const g = series(30, (i) => (i % 2 ? 1.02 : 0.98));
    g[12] = Number.NaN;
    g[20] = Number.POSITIVE_INFINITY;
    const [f] = explodingGradients.detect(trainingRun({ grad_norm: g }));
    expect(f).toMatchObject({ severity: "critical", confidence: MAX_CONFIDENCE, title: "Gradient norm became non-finite" });
    expect(f!.evidence[0]).toMatchObject({ window: [12, 12], observed: "NaN", threshold: "finite", n_points: 30 });
    expect(f!.evidence[0]!.text).toBe("grad_norm is NaN at step 12 (2 non-finite of 30).");
    expect(f!.description).toContain("became NaN at step 12");
  });

  it("lists at most 8 spike steps", () => {
    const g = series(400, (i) => (i % 2 ? 1.02 : 0.98));
    for (let k = 0; k < 9; k++) g[40 + 40 * k] = 50;
    const [f] = explodingGradients.detect(trainingRun({ grad_norm: g, loss: falling(400) }));
    expect(f!.evidence[0]!.values).toMatchObject({ spikes: 9 });
    expect(f!.evidence[0]!.text).toContain("at steps 40, 80, 120, 160, 200, 240, 280, 320, …;");
    expect(f!.evidence[0]!.window).toEqual([40, 360]);
  });

  /** A norm growing geometrically by `total` over the run (tiny wiggle), with the loss falling. */
  const growing = (total: number, n = 100) => trainingRun({ grad_norm: series(n, (i) => total ** (i / (n - 1)) * (i % 2 ? 1.01 : 0.99)), loss: falling(n) });

  it("fires for steady growth when the last 10 % is ≥ 10× the first, and not below", () => {
    const [f] = explodingGradients.detect(growing(15));
    expect(f).toMatchObject({ severity: "high" });
    const e = f!.evidence.find((x) => x.text.includes("grows steadily"))!;
    expect(e).toMatchObject({ threshold: 10, window: [0, 99], n_points: 100 });
    expect(Number(e.observed)).toBeGreaterThanOrEqual(10);
    expect(explodingGradients.detect(growing(10))).toEqual([]);
  });

  it("leaves a norm that rose and then settled (leaving the initial plateau) alone", () => {
    const g = series(100, (i) => (i < 50 ? 0.01 * 100 ** (i / 49) : 1) * (i % 2 ? 1.01 : 0.99));
    expect(explodingGradients.detect(trainingRun({ grad_norm: g, loss: falling(100) }))).toEqual([]);
  });

  it("reads a jump to a new level while the loss falls across it as learning, and as a spike when the loss does not fall", () => {
    const g = series(100, (i) => (i < 50 ? 0.05 : 1) * (i % 2 ? 1.02 : 0.98));
    const before = (i: number) => (i < 50 ? 2 : 1);
    expect(explodingGradients.detect(trainingRun({ grad_norm: g, loss: series(100, before) }))).toEqual([]);
    expect(explodingGradients.detect(trainingRun({ grad_norm: g, loss: series(100, () => 2) }))).toHaveLength(1);
  });
});
