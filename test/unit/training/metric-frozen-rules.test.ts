import { describe, expect, it } from "vitest";
import { metricFrozen } from "../../../nodes/training/detectors/metric-frozen.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-17's rules at their edges: an accuracy whose changes stay below 0.01 for ≥ max(20, 30 % of the evaluations),
 * and which is either constant (range < 1e-4, below 0.999) or within 0.01 of a single-class accuracy (range < 0.02).
 */

/** An accuracy climbing 0.02 per evaluation, then held at `level` for the last `frozen` evaluations (± `wiggle`). */
function frozenAt(level: number, frozen: number, n = 40, wiggle = 0) {
  return series(n, (i) => (i < n - frozen ? level - 0.02 * (n - frozen - i) : level + (i % 2 ? wiggle : 0)));
}
const detect = (acc: number[], params: Record<string, unknown> = {}) => metricFrozen.detect(trainingRun({ val_accuracy: acc }, { params }));

describe("TH-17 metric_frozen", () => {
  it("fires for a constant accuracy held over 20 evaluations (of 40), not 19", () => {
    const [f] = detect(frozenAt(0.7, 20));
    expect(f).toMatchObject({ id: "training.metric_frozen", severity: "high", title: "Accuracy frozen" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-17", artifact: "training_artifacts.metrics:val/accuracy", observed: 20, threshold: 20, window: [20, 39], n_points: 40 });
    expect(f!.evidence[0]!.values).toMatchObject({ level: 0.7, range: 0, class_prior: null });
    expect(f!.evidence[0]!.text).toBe("val/accuracy stays at 0.7 (range 0) for 20 consecutive evaluations, steps 20–39.");
    expect(f!.description).not.toContain("class prior");
    expect(detect(frozenAt(0.7, 19))).toEqual([]);
  });

  it("needs 30 % of a long run: 30 of 100 evaluations, not 29", () => {
    expect(detect(frozenAt(0.7, 30, 100))[0]!.evidence[0]).toMatchObject({ observed: 30, threshold: 30 });
    expect(detect(frozenAt(0.7, 29, 100))).toEqual([]);
  });

  it("calls a stretch constant below a range of 1e-4 and below 0.999, not a saturated accuracy", () => {
    expect(detect(frozenAt(0.7, 25, 40, 0.00009))).toHaveLength(1);
    expect(detect(frozenAt(0.7, 25, 40, 0.00011))).toEqual([]);
    expect(detect(frozenAt(0.9985, 25))).toHaveLength(1);
    expect(detect(frozenAt(0.9995, 25))).toEqual([]);
  });

  it("breaks a stretch at a change of 0.01", () => {
    const acc = frozenAt(0.7, 30);
    acc[25] = 0.7 + 0.0099;
    expect(detect(acc)).toEqual([]); // range 0.0099: not constant, no prior
    acc[25] = 0.71;
    expect(detect(acc)).toEqual([]); // two stretches of 15 and 14
    const slow = frozenAt(0.7, 30);
    for (let i = 10; i < 40; i++) slow[i] = 0.7 + 0.0099 * (i % 2);
    expect(detect(slow, { num_classes: 10 })).toEqual([]);
  });

  describe("at a class prior", () => {
    it("fires within 0.01 of 1/K with a range below 0.02, naming the prior", () => {
      // 0.104 ↔ 0.112: level 0.108; 0.107 ↔ 0.115: level 0.111.
      const [f] = detect(frozenAt(0.104, 25, 40, 0.008), { num_classes: 10 });
      expect(f!.evidence[0]!.values).toMatchObject({ class_prior: 0.1 });
      expect(f!.evidence[0]!.text).toContain(", the class prior 0.1.");
      expect(f!.description).toContain("and equals a class prior");
      expect(detect(frozenAt(0.107, 25, 40, 0.008), { num_classes: 10 })).toEqual([]);
      expect(detect(frozenAt(0.104, 25, 40, 0.008))).toEqual([]);
    });

    it("needs the range below 0.02", () => {
      const wide = frozenAt(0.1, 25);
      for (let i = 15; i < 40; i++) wide[i] = 0.1 + [0, 0.009, 0.018, 0.009][i % 4]!;
      expect(detect(wide, { num_classes: 10 })).toHaveLength(1);
      // Steps below 0.01 again, around 0.1, spanning `top`.
      const spanning = (top: number) => {
        const v = frozenAt(0.1, 25);
        for (let i = 15; i < 40; i++) v[i] = 0.09 + [0, 0.009, 0.018, top, top - 0.009, top - 0.018][(i - 15) % 6]!;
        v[14] = 0.05;
        return v;
      };
      expect(detect(spanning(0.0201), { num_classes: 10 })).toEqual([]);
      expect(detect(spanning(0.0199), { num_classes: 10 })).toHaveLength(1);
    });

    it("reads a stated majority share, and for two classes its complement", () => {
      expect(detect(frozenAt(0.83, 25, 40, 0.004), { majority_share: 0.83 })[0]!.evidence[0]!.values).toMatchObject({ class_prior: 0.83 });
      expect(detect(frozenAt(0.17, 25, 40, 0.004), { majority_share: 0.83, num_classes: 2 })[0]!.evidence[0]!.values).toMatchObject({ class_prior: 0.17 });
      expect(detect(frozenAt(0.17, 25, 40, 0.004), { majority_share: 0.83, num_classes: 3 })).toEqual([]);
    });
  });

  it("reports train and validation accuracy together", () => {
    const [f] = metricFrozen.detect(trainingRun({ accuracy: frozenAt(0.5, 25), val_accuracy: frozenAt(0.5, 25) }));
    expect(f!.evidence.map((e) => e.artifact)).toEqual(["training_artifacts.metrics:train/accuracy", "training_artifacts.metrics:val/accuracy"]);
    expect(f!.confidence).toBeGreaterThan(detect(frozenAt(0.5, 25))[0]!.confidence);
  });
});
