import { describe, expect, it } from "vitest";
import { beyond, boundaryOptima, detectBoundaryOptimum } from "../../../nodes/experiment/detectors/boundary.js";
import { detectSensitivity, sensitivities } from "../../../nodes/experiment/detectors/sensitivity.js";
import type { Experiment } from "../../../nodes/experiment/model.js";
import { grid, type RunInput, sweep, VAL_ACC } from "./runs.js";

const edge = (e: Experiment) => detectBoundaryOptimum(e)[0];

describe("EX-02 boundary optimum: the best value of a numeric parameter with ≥ 3 values at an end", () => {
  it("fires at the upper end of three values, not with two, not when the best is inside", () => {
    const f = edge(sweep(grid("lr", [[1, 0.7], [2, 0.6], [3, 0.5]])));
    expect(f?.title).toBe("Best lr is at the edge of the range tried");
    expect(f?.evidence[0]).toMatchObject({ rule_id: "EX-02", artifact: "runs:params.lr", observed: 3, threshold: 3, n_points: 3, noise_estimate: 0.01 });
    expect(f?.evidence[0]?.values).toEqual({ best_score: 0.5, neighbour: 2, neighbour_score: 0.6, suggested_next: 4 });
    expect(f?.evidence[0]?.text).toBe("Best val/loss 0.5 at lr = 3, the highest of 3 values tried (1, 2, 3); 0.6 at the next value 2.");
    expect(f?.recommendation?.action).toBe("Extend the search range of lr past 3 (try 4) until the best value is inside the range");
    expect(edge(sweep(grid("lr", [[1, 0.7], [2, 0.5]])))).toBeUndefined();
    expect(edge(sweep(grid("lr", [[1, 0.7], [2, 0.5], [3, 0.6]])))).toBeUndefined();
  });

  it("fires at the lower end, stepping below it", () => {
    const f = edge(sweep(grid("lr", [[1, 0.5], [2, 0.6], [3, 0.7]])));
    expect(f?.evidence[0]).toMatchObject({ observed: 1, threshold: 1 });
    expect(f?.evidence[0]?.values).toMatchObject({ neighbour: 2, suggested_next: 0 });
    expect(f?.description).toContain("lr = 1, the lowest value tried");
  });

  it("reads best the objective's way: the highest accuracy", () => {
    const f = edge(sweep(grid("lr", [[1, 0.7], [2, 0.8], [3, 0.9]]), { objective: VAL_ACC }));
    expect(f?.evidence[0]).toMatchObject({ observed: 3, values: { best_score: 0.9, neighbour_score: 0.8 } });
    expect(edge(sweep(grid("lr", [[1, 0.9], [2, 0.8], [3, 0.7]]), { objective: VAL_ACC }))?.evidence[0]?.observed).toBe(1);
  });

  it("is medium when the edge beats its neighbour by more than 2σ, low just under it or without noise", () => {
    const clear = edge(sweep(grid("lr", [[1, 0.7], [2, 0.521], [3, 0.5]])));
    expect([clear?.severity, clear?.confidence]).toEqual(["medium", 0.8]);
    expect(clear?.description).toContain("clearly ahead of 2 (by 0.021, more than twice the noise 0.01)");
    const close = edge(sweep(grid("lr", [[1, 0.7], [2, 0.519], [3, 0.5]])));
    expect([close?.severity, close?.confidence]).toEqual(["low", 0.55]);
    expect(close?.description).toContain(", ahead of 2 by 0.019;");
    const noiseless = edge(sweep(grid("lr", [[1, 0.9], [2, 0.8], [3, 0.5]], { noise: 0 })));
    expect(noiseless?.severity).toBe("low");
  });

  it("reads the range in numeric order whatever order the runs came in, and names the next value inside as neighbour", () => {
    const high = edge(sweep(grid("lr", [[3, 0.55], [10, 0.5], [1, 0.7], [2, 0.6]])));
    expect(high?.evidence[0]).toMatchObject({ observed: 10, threshold: 10, values: { neighbour: 3, neighbour_score: 0.55 } });
    expect(high?.evidence[0]?.text).toContain("the highest of 4 values tried (1, 2, 3, 10)");
    const low = edge(sweep(grid("lr", [[4, 0.9], [3, 0.8], [2, 0.6], [1, 0.5]])));
    expect(low?.evidence[0]).toMatchObject({ observed: 1, threshold: 1, values: { neighbour: 2, neighbour_score: 0.6 } });
  });

  it("takes each value's best configuration when another parameter is swept too", () => {
    const runs: Record<string, RunInput> = {};
    const at = (lr: number, wd: number, score: number) => (runs[`lr${lr}-wd${wd}`] = { params: { lr, wd }, score });
    at(1, 0, 0.6), at(1, 1, 0.4), at(2, 0, 0.5), at(2, 1, 0.55), at(3, 0, 0.7), at(3, 1, 0.65);
    const [lr] = boundaryOptima(sweep(runs));
    expect(lr).toMatchObject({ param: "lr", best: 1, side: "lowest", neighbour: 2, bestScore: 0.4, neighbourScore: 0.5 });
  });

  it("skips values whose runs all failed as neighbours, and needs three values that scored", () => {
    const f = edge(sweep(grid("lr", [[1, 0.5], [2, undefined], [3, 0.6], [4, 0.7]])));
    expect(f?.evidence[0]).toMatchObject({ observed: 1, n_points: 4, values: { neighbour: 3, neighbour_score: 0.6 } });
    expect(edge(sweep(grid("lr", [[1, 0.5], [2, undefined], [3, 0.6]])))).toBeUndefined();
    // The best scored value is not an end of the range tried when the end failed.
    expect(edge(sweep(grid("lr", [[1, undefined], [2, 0.5], [3, 0.6], [4, 0.7]])))).toBeUndefined();
  });

  it("leaves non-numeric parameters alone", () => {
    expect(edge(sweep(grid("optimizer", [["adam", 0.5], ["sgd", 0.6], ["rmsprop", 0.7]])))).toBeUndefined();
    expect(edge(sweep(grid("lr", [[1, 0.5], [2, 0.6], ["auto", 0.7]])))).toBeUndefined();
  });

  it("steps geometrically past the edge when the range spans a decade, linearly otherwise", () => {
    const next = (values: number[], best: number, neighbour: number) => beyond({ param: "p", best, side: "highest", neighbour, bestScore: 0, neighbourScore: 1, values });
    expect(next([1e-4, 1e-3, 1e-2], 1e-2, 1e-3)).toBe(0.1);
    expect(next([1e-4, 1e-3, 1e-2], 1e-4, 1e-3)).toBe(0.00001);
    expect(next([1, 5, 10], 10, 5)).toBe(20);
    expect(next([1, 5, 9], 9, 5)).toBe(13);
    expect(next([0, 1, 10], 10, 1)).toBe(19);
    expect(next([1, 2, 3.3333], 3.3333, 2)).toBe(4.67);
  });
});

describe("EX-03 sensitivity: Spearman ρ over ≥ 5 finished runs and ≥ 3 values", () => {
  const five = (scores: number[], extra: RunInput = {}) => grid("lr", scores.map((s, i) => [i + 1, s] as [number, number]), extra);

  it("fires from five runs, not four", () => {
    const [f] = detectSensitivity(sweep(five([0.1, 0.2, 0.3, 0.4, 0.5])));
    expect(f?.title).toBe("The objective depends on lr");
    expect(f?.evidence[0]).toMatchObject({ rule_id: "EX-03", artifact: "runs:params.lr", observed: 1, n_points: 5, values: { ci_low: 1, ci_high: 1 } });
    expect(f?.description).toContain("(lower is better)");
    expect(f?.description).toContain("Only lr has an interval excluding zero.");
    expect(f?.confidence).toBe(0.75);
    expect(f?.description).toContain("with each numeric swept parameter: lr (ρ = 1, 95 % interval 1 to 1, 5 runs).");
    expect(f?.recommendation?.action).toBe("Spend the next trials on lr; fix the parameters with no detectable effect at a good value");
    expect(detectSensitivity(sweep(grid("lr", [[1, 0.1], [2, 0.2], [3, 0.3], [4, 0.4]])))).toEqual([]);
  });

  it("needs three distinct values: five runs at two values are not enough", () => {
    const repeats = (lr: number, n: number, base: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`lr${lr}-s${i}`, { params: { lr, seed: i }, score: base + i / 100 }]));
    expect(sensitivities(sweep({ ...repeats(1, 3, 0.1), ...repeats(2, 2, 0.5) }))).toEqual([]);
    expect(sensitivities(sweep({ ...repeats(1, 2, 0.1), ...repeats(2, 2, 0.5), ...repeats(3, 1, 0.9) })).map((s) => [s.param, s.n])).toEqual([["lr", 5]]);
  });

  it("counts only finished runs with a numeric value", () => {
    const failedOne = grid("lr", [[1, 0.1], [2, 0.2], [3, 0.3], [4, 0.4], [5, 0.5], [6, undefined]]);
    expect(sensitivities(sweep(failedOne)).map((s) => s.n)).toEqual([5]);
    const failedTwo = grid("lr", [[1, 0.1], [2, 0.2], [3, 0.3], [4, 0.4], [5, undefined], [6, undefined]]);
    expect(sensitivities(sweep(failedTwo))).toEqual([]);
    const auto = grid("lr", [[1, 0.1], [2, 0.2], [3, 0.3], [4, 0.4], ["auto", 0.5]]);
    expect(sensitivities(sweep(auto))).toEqual([]);
  });

  it("sees a falling objective as clear too, and the higher-is-better direction", () => {
    const [f] = detectSensitivity(sweep(five([0.9, 0.8, 0.7, 0.6, 0.5]), { objective: VAL_ACC }));
    expect(f?.evidence[0]).toMatchObject({ observed: -1, values: { ci_low: -1, ci_high: -1 } });
    expect(f?.title).toBe("The objective depends on lr");
    expect(f?.description).toContain("(higher is better)");
  });

  it("says no parameter clearly matters when every interval includes zero, and recommends nothing", () => {
    const [f] = detectSensitivity(sweep(five([0.3, 0.1, 0.5, 0.2, 0.4])));
    expect(f?.title).toBe("No swept parameter clearly moves the objective");
    expect(f?.confidence).toBe(0.5);
    expect(f?.recommendation).toBeNull();
    expect(f?.description).toContain("Every interval includes zero");
    expect(Number(f?.evidence[0]?.values?.ci_low)).toBeLessThan(0);
    expect(Number(f?.evidence[0]?.values?.ci_high)).toBeGreaterThan(0);
  });

  it("lists parameters by the strength of their correlation, then by name", () => {
    const runs: Record<string, RunInput> = {};
    const scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    const dropout = [3, 1, 6, 2, 5, 4];
    scores.forEach((score, i) => (runs[`r${i}`] = { params: { a_dropout: dropout[i]!, lr: i + 1, z_warmup: 6 - i }, score }));
    const all = sensitivities(sweep(runs));
    expect(all.map((s) => s.param)).toEqual(["lr", "z_warmup", "a_dropout"]);
    const [f] = detectSensitivity(sweep(runs));
    expect(f?.title).toBe("The objective depends on lr, z_warmup");
    expect(f?.description).toContain("Only lr, z_warmup have intervals excluding zero.");
    expect(f?.description).toContain("6 runs); z_warmup (ρ = -1,");
    expect(f?.recommendation?.action).toContain("Spend the next trials on lr, z_warmup;");
    expect(f?.evidence.map((x) => x.artifact)).toEqual(["runs:params.lr", "runs:params.z_warmup", "runs:params.a_dropout"]);
    expect(f?.evidence[2]?.observed).toBeCloseTo(0.3714, 4);
  });
});
