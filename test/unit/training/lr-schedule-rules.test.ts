import { describe, expect, it } from "vitest";
import { lrSchedule } from "../../../nodes/training/detectors/lr-schedule.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-20's four rules at their edges (detectors-optimizer.test.ts has the real schedules): a constant lr under a
 * configured scheduler, a warm-up longer than 10 % of the run, a tail below 1e-3 × the peak for more than 20 % of
 * it, ≥ 3 reductions by a plateau scheduler (medium); cyclic schedules are exempt from the last three.
 */

const N = 101; // steps 0 … 100: a point is 1 % of the run
const detect = (lr: number[], params: Record<string, unknown> = {}, logs: string[] = []) => lrSchedule.detect(trainingRun({ lr }, { params, logs }));
const texts = (lr: number[], params?: Record<string, unknown>, logs?: string[]) => detect(lr, params, logs).flatMap((f) => f.evidence.map((e) => e.text));

describe("TH-20 (a) a constant learning rate although a scheduler is configured", () => {
  it("is low, names the scheduler, and needs 5 points", () => {
    const [f] = detect(series(5, () => 1e-3), { lr_scheduler_type: "cosine" });
    expect(f).toMatchObject({ severity: "low", title: "Learning-rate schedule issues" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-20", artifact: "training_artifacts.metrics:lr", observed: 1e-3, threshold: "changes over the run" });
    expect(f!.evidence[0]!.text).toBe("The learning rate stays at 0.001 for all 5 logged points although a scheduler is configured (cosine).");
    expect(f!.description).toContain("the learning rate stays at 0.001 for all 5 logged points");
    expect(detect(series(4, () => 1e-3), { lr_scheduler_type: "cosine" })).toEqual([]);
  });

  it("counts an lr within 0.1 % of its peak as constant, and a scheduler set to none as no scheduler", () => {
    expect(detect(series(20, (i) => 1e-3 * (1 - 0.0009 * (i % 2))), { lr_scheduler_type: "cosine" })).toHaveLength(1);
    expect(detect(series(20, (i) => 1e-3 * (1 - 0.0011 * (i % 2))), { lr_scheduler_type: "cosine" })).toEqual([]);
    expect(detect(series(20, () => 1e-3), { lr_scheduler_type: "none" })).toEqual([]);
    expect(detect(series(20, () => 1e-3))).toEqual([]);
  });

  it("leaves a plateau scheduler that never had to cut alone, and needs a positive peak", () => {
    expect(detect(series(20, () => 1e-3), { scheduler: "ReduceLROnPlateau" })).toEqual([]);
    expect(detect(series(20, () => 0), { lr_scheduler_type: "cosine" })).toEqual([]);
  });
});

describe("TH-20 (b) warm-up longer than 10 % of the run", () => {
  /** Rising linearly from peak/100 to the peak at step `top`, then decaying linearly to a tenth of it at the end. */
  const warm = (top: number) => series(N, (i) => (i <= top ? 1e-3 * (0.01 + (0.99 * i) / top) : 1e-3 * (1 - (0.9 * (i - top)) / (N - 1 - top))));

  it("is low at 11 % of the run, quiet at 10 %", () => {
    const [f] = detect(warm(11));
    expect(f).toMatchObject({ severity: "low" });
    expect(f!.evidence[0]).toMatchObject({ window: [0, 11], threshold: 0.1 });
    expect(f!.evidence[0]!.observed).toBeCloseTo(0.11, 10);
    expect(f!.evidence[0]!.text).toBe("Warm-up rises to the peak 0.001 over 11 % of the run (up to step 11); the playbook keeps it ≤ 10 %.");
    expect(detect(warm(10))).toEqual([]);
  });

  it("is not a warm-up when the lr starts at half its peak or more, or peaks at the last point", () => {
    const gentle = series(N, (i) => (i <= 30 ? 1e-3 * (0.5 + (0.5 * i) / 30) : 1e-3 * (1 - (0.9 * (i - 30)) / 70)));
    expect(detect(gentle)).toEqual([]);
    const almostHalf = series(N, (i) => (i <= 30 ? 1e-3 * (0.49 + (0.51 * i) / 30) : 1e-3 * (1 - (0.9 * (i - 30)) / 70)));
    expect(detect(almostHalf)).toHaveLength(1);
    expect(detect(series(N, (i) => 1e-5 * (1 + i)))).toEqual([]);
  });
});

describe("TH-20 (c) a tail below 1e-3 × the peak for more than 20 % of the run", () => {
  /** 1e-3 until the tail, then 1e-7 (1e-4 × the peak) for the last `tail` steps. */
  const tailed = (tail: number, floor = 1e-7) => series(N, (i) => (i > 100 - tail ? floor : 1e-3));

  it("is low at 21 % of the run, quiet at 20 %", () => {
    const [f] = detect(tailed(21));
    expect(f).toMatchObject({ severity: "low" });
    expect(f!.evidence[0]!.observed).toBeCloseTo(0.21, 10);
    expect(f!.evidence[0]!.threshold).toBe(0.2);
    expect(f!.evidence[0]!.text).toBe("The learning rate is below 0.001 × its peak for 21 % of the run: those steps barely change the weights.");
    expect(detect(tailed(20))).toEqual([]);
  });

  it("counts only points below 1e-3 × the peak", () => {
    expect(detect(tailed(40, 1.01e-6))).toEqual([]);
    expect(detect(tailed(40, 0.99e-6))).toHaveLength(1);
  });
});

describe("TH-20 (d) repeated cuts by a plateau scheduler", () => {
  /** Halvings at steps 20, 40, 60 … (`cuts` of them). */
  const halved = (cuts: number) => series(N, (i) => 1e-3 * 0.5 ** Math.min(cuts, Math.floor(i / 20)));
  const plateau = { scheduler: "ReduceLROnPlateau" };

  it("is medium from 3 reductions, with the peak and final lr, and quiet at 2 or without a plateau scheduler", () => {
    const [f] = detect(halved(3), plateau);
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.metrics:lr", observed: 3, threshold: 3 });
    expect(f!.evidence[0]!.text).toBe("The plateau scheduler reduced the learning rate 3 times (from 0.001 to 1.25e-4): validation kept stalling and each cut bought little.");
    expect(detect(halved(2), plateau)).toEqual([]);
    expect(detect(halved(3))).toEqual([]);
  });

  it("counts a drop to below 80 % of the previous point as a reduction, not one to 80 % or to zero", () => {
    const cut = (factor: number) => series(N, (i) => 1e-3 * factor ** Math.min(3, Math.floor(i / 20)));
    expect(detect(cut(0.79), plateau)).toHaveLength(1);
    expect(detect(cut(0.8), plateau)).toEqual([]);
    const toZero = series(N, (i) => (i < 20 ? 1e-3 : i < 40 ? 5e-4 : i < 60 ? 2.5e-4 : 0));
    expect(detect(toZero, plateau).flatMap((f) => f.evidence.filter((e) => e.threshold === 3))).toEqual([]);
  });

  it("takes the count from the logs when they report more cuts, and cites the logs", () => {
    const logs = Array.from({ length: 4 }, (_, i) => `Epoch ${10 * (i + 1)}: ReduceLROnPlateau reducing learning rate to ${1e-3 * 0.5 ** (i + 1)}.`);
    const [f] = detect(halved(1), {}, logs);
    expect(f).toMatchObject({ severity: "medium" });
    const e = f!.evidence.find((x) => x.threshold === 3)!;
    expect(e).toMatchObject({ artifact: "training_artifacts.logs", observed: 4 });
  });
});

describe("TH-20: cyclic schedules", () => {
  it("exempts an lr that returns to its peak after a dip below 60 % of it", () => {
    const cyclic = series(N, (i) => 1e-3 * (0.55 + 0.45 * Math.cos((2 * Math.PI * i) / 50)) * (i > 70 ? 1e-5 : 1));
    expect(texts(cyclic)).toEqual([]);
    // The same tail without the return to the peak is a wasted tail.
    const once = series(N, (i) => 1e-3 * (i > 75 ? 1e-5 : 0.55 + 0.45 * Math.cos((Math.PI * i) / 75)));
    expect(texts(once).join(" ")).toContain("below 0.001 × its peak");
  });
});
