import { describe, expect, it } from "vitest";
import { lossSpikes } from "../../../nodes/training/detectors/loss-spikes.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-03's rules at their edges (detectors-loss.test.ts has the real runs): the 10 % minimum jump, the severity
 * steps (one recovered blip below 2× → low, a larger one → medium, > 5 spikes or one unrecovered → high), the
 * 20-point minimum and the evidence it reports.
 */

const N = 200;
/** A flat loss of 1 with 0.1 % multiplicative noise (σ̂ far below the 10 % floor), with `edit` applied. */
function loss(edit: (v: number[]) => void = () => {}, n = N, level = 1): number[] {
  const rng = new Prng(21);
  const v = series(n, () => level * Math.exp(0.001 * rng.normal()));
  edit(v);
  return v;
}
const detect = (v: number[]) => lossSpikes.detect(trainingRun({ loss: v }));
const severities = (v: number[]) => detect(v).map((f) => f.severity);

describe("TH-03 loss_spikes", () => {
  it("needs a jump of at least 10 % above the level when the noise is small", () => {
    expect(severities(loss((v) => (v[100] = 1.12)))).toEqual(["low"]);
    expect(severities(loss((v) => (v[100] = 1.08)))).toEqual([]);
  });

  it("needs 20 points", () => {
    expect(severities(loss((v) => (v[12] = 3), 20))).toHaveLength(1);
    expect(severities(loss((v) => (v[12] = 3), 19))).toEqual([]);
  });

  it("is low for one recovered blip below 2× the level, medium from 2× on", () => {
    const [low] = detect(loss((v) => (v[100] = 1.9)));
    expect(low).toMatchObject({ severity: "low", title: "Training-loss spikes" });
    expect(low!.confidence).toBeLessThan(detect(loss((v) => (v[100] = 2.1)))[0]!.confidence);
    expect(severities(loss((v) => (v[100] = 2.1)))).toEqual(["medium"]);
  });

  it("is medium for up to 5 recovered spikes and high for 6", () => {
    const spikes = (k: number) => loss((v) => {
      for (let j = 0; j < k; j++) v[30 + 25 * j] = 1.5;
    });
    expect(severities(spikes(2))).toEqual(["medium"]);
    expect(severities(spikes(5))).toEqual(["medium"]);
    expect(severities(spikes(6))).toEqual(["high"]);
  });

  it("is high for a spike the loss does not come back from, and says where", () => {
    // Three times the level for 20 steps from step 100, then 1.3: well above the level it left.
    const [f] = detect(loss((v) => {
      for (let i = 100; i < N; i++) v[i] = i < 120 ? 3 : 1.3;
    }));
    expect(f).toMatchObject({ severity: "high", title: "Training-loss spikes the run did not recover from" });
    expect(f!.recommendation).toMatchObject({ effort: "medium" });
    expect(f!.recommendation!.action).toContain("Resume from a checkpoint");
    expect(f!.description).toContain("after the spike at step 100 the loss stayed well above its earlier level");
    expect(f!.evidence[0]!.values).toMatchObject({ unrecovered: 1, first_unrecovered_step: 100 });
    expect(f!.evidence[0]!.text).toContain("not recovered");
  });

  it("reports the spikes, their rate, the scale and where they are", () => {
    const [f] = detect(loss((v) => {
      v[50] = 2.5;
      v[150] = 2.5;
    }));
    expect(f).toMatchObject({ severity: "medium", recommendation: { effort: "low" } });
    expect(f!.recommendation!.action).toMatch(/^Clip gradients/);
    expect(f!.description).toContain("spiked 2 time(s)");
    expect(f!.description).toContain("each time recovering");
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-03", observed: 2, window: [50, 150], n_points: N, threshold: "> 6σ above the rolling median and ≥ 10 %" });
    expect(e.values).toMatchObject({ spikes: 2, unrecovered: 0, first_unrecovered_step: null, scale: "log" });
    expect(Number(e.values!.per_1k_steps)).toBeCloseTo((1000 * 2) / 199, 4);
    expect(e.text).toMatch(/^Spikes at steps 50 \(1 → 2\.5\), 150 \(0\.99\d* → 2\.5\); the largest is [\d.]+ local σ above the rolling median\.$/);
  });

  it("judges a loss that goes negative on a linear scale, against 10 % of its level", () => {
    const shifted = (peak: number) => loss((v) => {
      for (let i = 0; i < v.length; i++) v[i] = v[i]! - 2;
      v[100] = peak;
    });
    // Level about −1: a spike must reach −0.9.
    const [f] = detect(shifted(-0.85));
    expect(f!.evidence[0]!.values).toMatchObject({ scale: "linear" });
    expect(detect(shifted(-0.95))).toEqual([]);
  });
});
