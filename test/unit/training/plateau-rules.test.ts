import { describe, expect, it } from "vitest";
import { curve } from "../../../nodes/training/curves.js";
import { findPlateau, plateau } from "../../../nodes/training/detectors/plateau.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-06's rules at their edges (detectors-loss.test.ts has the real shapes): the plateau must last ≥ max(10, 25 % of
 * the run); medium when it starts in the first half, low when it starts later or the logged lr had already halved;
 * a late plateau under a halved lr is convergence; a loss that never fell, rises again or is already ≤ 5 % of its
 * start is not a plateau.
 */

const N = 40;
/** A loss falling linearly from 2 to 1 by point `at`, then flat at 1 (no noise). */
const stall = (at: number, n = N) => series(n, (i) => (i < at ? 2 - i / at : 1));
const detect = (loss: number[], lr?: number[]) => plateau.detect(trainingRun({ loss, ...(lr ? { lr } : {}) }));
const found = (loss: number[]) => findPlateau(curve(trainingRun({ loss }), "train", "loss")!);

describe("TH-06 plateau", () => {
  it("needs the plateau to last max(10, 25 %) points: 10 of 40 fire, 9 do not", () => {
    // The smoothed curve (window 3) reaches the level one point after the raw one.
    expect(found(stall(28))).toMatchObject({ lastImprovement: 29, length: 10 });
    expect(found(stall(29))).toBeNull();
    // 60 points: 15 needed.
    expect(found(stall(43, 60))).toMatchObject({ length: 15 });
    expect(found(stall(44, 60))).toBeNull();
  });

  it("is medium when the plateau starts in the first half, low from the middle on", () => {
    const [early] = detect(stall(18));
    expect(early).toMatchObject({ id: "training.plateau", severity: "medium", title: "Loss plateaued early" });
    const [late] = detect(stall(20));
    expect(late).toMatchObject({ severity: "low", title: "Loss plateaued" });
    expect(late!.confidence).toBeLessThan(early!.confidence);
  });

  it("reports where it started, its level and share", () => {
    const [f] = detect(stall(10));
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-06", artifact: "training_artifacts.metrics:train/loss", window: [11, 39], observed: 28, n_points: N, values: { plateau_level: 1, plateau_share: 0.7 } });
    expect(e.threshold).toBe("≥ max(10, 25 % of the run) points within max(1e-4 relative, 2σ̂/√w) of the final minimum");
    // Within 2σ̂/√w of the level: σ̂ is read from the differences of the falling part.
    expect(e.text).toMatch(/^The smoothed train\/loss reached 1 \(within 0\.02\d*\) at step 11 and improved no further over the following 28 points\.$/);
    expect(f!.description).toContain("has not improved beyond noise since step 11 (70 % of the run, 28 points), staying near 1");
  });

  it("is low for an early plateau when the lr had already halved, and quiet for a late one under a halved lr", () => {
    const halvedAt = (step: number) => series(N, (i) => (i < step ? 1e-3 : 5e-4));
    expect(detect(stall(10), halvedAt(5))[0]).toMatchObject({ severity: "low", title: "Loss plateaued early" });
    expect(detect(stall(10), halvedAt(15))[0]).toMatchObject({ severity: "medium" });
    expect(detect(stall(20), halvedAt(35))).toEqual([]);
    expect(detect(stall(20), series(N, (i) => (i < 35 ? 1e-3 : 5.1e-4)))).toHaveLength(1);
  });

  it("is not a loss that never fell, rose again or is already near zero", () => {
    expect(found(series(N, () => 1))).toBeNull();
    expect(found(stall(10))).not.toBeNull();
    const rises = series(N, (i) => (i < 10 ? 2 - i / 10 : i < 35 ? 1 : 1 + 0.1 * (i - 34)));
    expect(found(rises)).toBeNull();
    // Start 1.81 (mean of the first 3): 5 % of it is 0.0905.
    expect(found(series(N, (i) => (i < 10 ? 2 - (1.92 * i) / 10 : 0.08)))).toBeNull();
    expect(found(series(N, (i) => (i < 10 ? 2 - (1.9 * i) / 10 : 0.1)))).not.toBeNull();
  });

  it("reads the validation loss without a training loss", () => {
    const [f] = plateau.detect(trainingRun({ val_loss: stall(10) }));
    expect(f!.evidence[0]!.artifact).toBe("training_artifacts.metrics:val/loss");
  });
});
