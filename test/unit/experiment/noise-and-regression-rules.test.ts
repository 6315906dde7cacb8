import { describe, expect, it } from "vitest";
import { detectPick } from "../../../nodes/experiment/detectors/pick.js";
import { compareWithBaseline, detectRegression } from "../../../nodes/experiment/detectors/regression.js";
import { detectWithinNoise, rankedGroups, tiedWithBest } from "../../../nodes/experiment/detectors/within-noise.js";
import type { Experiment } from "../../../nodes/experiment/model.js";
import { type RunInput, runFinding, sweep, VAL_ACC } from "./runs.js";

/** z(0.975) and z(0.99): the critical differences of single runs, whose noise comes from their curves (df ∞). */
const Z975 = 1.959964;
const Z99 = 2.326348;
/** The standard error of the difference of two single runs with evaluation noise 0.01 each. */
const SE = Math.SQRT2 * 0.01;

const seeds = (config: Record<string, string | number>, scores: number[], prefix: string, extra: RunInput = {}): Record<string, RunInput> =>
  Object.fromEntries(scores.map((score, i) => [`${prefix}-${i + 1}`, { ...extra, params: { ...config, seed: i + 1 }, score }]));
const single = (arch: string, score: number, extra: RunInput = {}): Record<string, RunInput> => ({ [arch]: { ...extra, params: { arch }, score } });

const within = (e: Experiment) => detectWithinNoise(e)[0];
const regression = (e: Experiment) => detectRegression(e, compareWithBaseline(e))[0];

describe("EX-01 within noise: the lead against t(0.975, df)·SE of each pair", () => {
  it("ties two single runs just inside 1.96·√2·σ of curve noise, not just outside", () => {
    expect(Z975 * SE).toBeCloseTo(0.0277181, 6);
    const inside = within(sweep({ ...single("a", 0.5), ...single("b", 0.5277) }));
    expect(inside?.severity).toBe("medium");
    expect(inside?.evidence[0]?.observed).toBeCloseTo(0.0277, 10);
    expect(inside?.evidence[0]?.threshold).toBeCloseTo(0.0277181, 6);
    expect(inside?.evidence[0]?.noise_estimate).toBeCloseTo(0.01, 10);
    expect(inside?.evidence[0]?.n_points).toBe(2);
    expect(inside?.evidence[0]?.values).toEqual({ best_mean: 0.5, other_mean: 0.5277, noise_source: "curves", df: null });
    expect(inside?.confidence).toBe(0.6);
    expect(inside?.description).toContain("arch=b (0.5277, Δ 0.0277 < 0.02772; σ = 0.01 from the runs' own curves)");
    expect(inside?.description).toContain("arch=a: 0.5");
    expect(inside?.recommendation?.action).toContain("Repeat the 2 leading configurations");
    expect(within(sweep({ ...single("a", 0.5), ...single("b", 0.5278) }))).toBeUndefined();
  });

  it("reads the lead the objective's way: higher accuracy is better", () => {
    const e = sweep({ ...single("a", 0.8), ...single("b", 0.7723), ...single("c", 0.7) }, { objective: VAL_ACC });
    expect(rankedGroups(e).map((g) => g.params.arch)).toEqual(["a", "b", "c"]);
    const f = within(e);
    expect(f?.evidence.map((x) => x.values?.other_mean)).toEqual([0.7723]);
    expect(f?.evidence[0]?.observed).toBeCloseTo(0.0277, 10);
  });

  it("judges seed replicates by Welch: t(0.975, 2)·SE with both configurations' variances", () => {
    // Each configuration: two seeds 0.02 apart, s² = 0.0002; SE = √(2·0.0002/2) = 0.01414, df = 2, t = 4.303.
    const critical = 4.302653 * 0.0141421;
    const tied = tiedWithBest(sweep({ ...seeds({ arch: "a" }, [0.5, 0.52], "a"), ...seeds({ arch: "b" }, [0.55, 0.57], "b") }));
    expect(tied?.tied.map((t) => [t.group.params.arch, t.noise.source])).toEqual([["b", "seeds"]]);
    expect(tied?.tied[0]?.noise.df).toBeCloseTo(2, 10);
    expect(tied?.tied[0]?.critical).toBeCloseTo(critical, 4);
    const f = within(sweep({ ...seeds({ arch: "a" }, [0.5, 0.52], "a"), ...seeds({ arch: "b" }, [0.55, 0.57], "b") }));
    expect(f?.confidence).toBe(0.8);
    expect(f?.evidence[0]?.values?.df).toBeCloseTo(2, 10);
    expect(f?.evidence[0]?.n_points).toBe(4);
    expect(f?.description).toContain("df 2");
    expect(tiedWithBest(sweep({ ...seeds({ arch: "a" }, [0.5, 0.52], "a"), ...seeds({ arch: "b" }, [0.58, 0.6], "b") }))?.tied).toEqual([]);
  });

  it("says nothing when the noise is zero (nothing to judge a lead by) or no configuration scored", () => {
    expect(tiedWithBest(sweep({ ...single("a", 0.5, { noise: 0 }), ...single("b", 0.5001, { noise: 0 }) }))).toBeNull();
    expect(tiedWithBest(sweep({ a: { params: { arch: "a" }, diverged: true }, b: { params: { arch: "b" }, diverged: true } }))).toBeNull();
    expect(within(sweep({ ...single("a", 0.5) }))).toBeUndefined();
  });

  it("names at most four ties in its description, ten in evidence, and asks for at most five configurations", () => {
    const many = Object.assign({}, ...Array.from({ length: 12 }, (_, i) => single(`c${String(i).padStart(2, "0")}`, 0.5 + i * 0.001)));
    const f = within(sweep(many))!;
    expect(f.evidence).toHaveLength(10);
    expect(f.description).toContain("from 11 other(s)");
    expect(f.description).toContain("arch=c04 (0.504");
    expect(f.description).not.toContain("arch=c05 (");
    expect(f.description).toContain("; ….");
    expect(f.recommendation?.action).toContain("Repeat the 5 leading configurations");
    expect(f.description).toContain("; arch=c02 (0.502");
    expect(within(sweep({ ...single("a", 0.5), ...single("b", 0.501) }))!.description).toContain("from the runs' own curves). Calling one of them better is reading noise.");
    const four = Object.assign({}, ...Array.from({ length: 5 }, (_, i) => single(`c${i}`, 0.5 + i * 0.001)));
    expect(within(sweep(four))!.description).not.toContain("…");
  });

  it("is less sure when any tie rests on the runs' curve noise rather than seeds", () => {
    // b's pair uses b's seed variance; c's pair (two single runs) the curves.
    const f = within(sweep({ ...single("a", 0.5), ...seeds({ arch: "b" }, [0.5, 0.52], "b"), ...single("c", 0.51) }));
    expect(f?.evidence.map((x) => x.values?.noise_source)).toEqual(["seeds", "curves"]);
    expect(f?.confidence).toBe(0.6);
  });

  it("ranks configurations of equal mean by their key, so the best does not depend on arrival order", () => {
    const e = sweep({ ...single("b", 0.5), ...single("a", 0.5), ...single("c", 0.4) });
    expect(rankedGroups(e).map((g) => g.params.arch)).toEqual(["c", "a", "b"]);
  });
});

describe("EX-05 regression: best and final both worse than t(0.99, df)·SE, or every run failed", () => {
  const pair = (candidate: RunInput, base: RunInput = { score: 0.5 }, objective = undefined as typeof VAL_ACC | undefined) =>
    sweep({ main: { params: { change: "main" }, ...base }, pr: { params: { change: "pr" }, ...candidate } }, { baseline: "main", objective });

  it("calls a single-run candidate worse by just over 2.326·√2·σ a regression, just under not", () => {
    expect(Z99 * SE).toBeCloseTo(0.0328995, 6);
    const over = pair({ score: 0.5329 });
    const c = compareWithBaseline(over)!.candidates[0]!;
    expect(c.critical).toBeCloseTo(0.0328995, 6);
    expect(c.worse_best).toBeCloseTo(0.0329, 10);
    expect(c.worse_final).toBeCloseTo(0.0329, 10);
    expect(c.noise).toEqual({ sigma: expect.closeTo(0.01, 10), df: null, source: "curves" });
    expect(c.regression).toBe(true);
    const f = regression(over)!;
    expect(f.severity).toBe("high");
    expect(f.title).toContain("baseline main");
    expect(f.evidence[0]).toMatchObject({ observed: 0.0329, threshold: 0.0328995, noise_estimate: 0.01, n_points: 2 });
    expect(f.evidence[0]?.values).toEqual({ candidate_best: 0.5329, baseline_best: 0.5, candidate_final: 0.5329, baseline_final: 0.5, noise_source: "curves", df: null });
    expect(f.description).toContain("worse by 0.0329 and 0.0329, both beyond the noise threshold 0.0329");
    const under = pair({ score: 0.5328 });
    expect(compareWithBaseline(under)?.regression).toBe(false);
    expect(regression(under)).toBeUndefined();
  });

  it("needs the final level worse too: a worse best alone is as often a lucky evaluation", () => {
    expect(compareWithBaseline(pair({ score: 0.6, final: 0.52 }))?.regression).toBe(false);
    expect(compareWithBaseline(pair({ score: 0.52, final: 0.6 }))?.regression).toBe(false);
    expect(compareWithBaseline(pair({ score: 0.6, final: 0.6 }))?.regression).toBe(true);
  });

  it("reads worse the objective's way: lower accuracy", () => {
    expect(compareWithBaseline(pair({ score: 0.8672 }, { score: 0.9 }, VAL_ACC))?.regression).toBe(false);
    expect(compareWithBaseline(pair({ score: 0.8671 }, { score: 0.9 }, VAL_ACC))?.regression).toBe(true);
    const worse = pair({ score: 0.8, curve: [[1, 0.5], [10, 0.8]] }, { score: 0.9, curve: [[1, 0.5], [3, 0.88], [5, 0.9]] }, VAL_ACC);
    const c = compareWithBaseline(worse)!.candidates[0]!;
    expect(c.worse_best).toBeCloseTo(0.1, 10);
    expect(c.baseline_steps_to_level).toBe(3);
    expect(c.steps_to_baseline_level).toBeNull();
    expect(c.reasons[1]).toBe("never reached the baseline's level 0.8671 (the baseline did at step 3)");
    expect(compareWithBaseline(pair({ score: 0.9329 }, { score: 0.9 }, VAL_ACC))?.regression).toBe(false);
  });

  it("finds the step at which each curve first reaches the baseline's level (within the critical difference)", () => {
    // Level 0.5 + 0.0329: the baseline gets there at step 4, the candidate (no worse) at step 6.
    const e = pair({ score: 0.5, curve: [[2, 0.9], [6, 0.53], [10, 0.5]] }, { score: 0.5, curve: [[1, 0.8], [4, 0.5328], [8, 0.5]] });
    const c = compareWithBaseline(e)!.candidates[0]!;
    expect([c.steps_to_baseline_level, c.baseline_steps_to_level]).toEqual([6, 4]);
    expect(c.regression).toBe(false);
    expect(c.reasons).toEqual([]);
  });

  it("is critical when every run of the candidate failed while the baseline finished", () => {
    const e = pair({ diverged: true }, { score: 0.5, curve: [[2, 0.6], [5, 0.5]] });
    const c = compareWithBaseline(e)!.candidates[0]!;
    expect(c).toMatchObject({ best: null, final: null, worse_best: null, worse_final: null, failed: ["pr"], regression: true });
    expect(c.reasons[0]).toBe("every run failed (val/loss ended non-finite after 9 finite points) while the baseline finished");
    // No candidate score: the pair's noise is the baseline's curve alone, √(0.01²) → level 0.5 + 2.326·0.01.
    expect(c.critical).toBeCloseTo(Z99 * 0.01, 6);
    expect(c.reasons[1]).toBe("never reached the baseline's level 0.5233 (the baseline did at step 5)");
    const f = regression(e)!;
    expect(f.severity).toBe("critical");
    expect(f.confidence).toBe(0.9);
    expect(f.evidence[0]?.observed).toBeNull();
    // Both failed: nothing to regress against.
    expect(compareWithBaseline(pair({ diverged: true }, { diverged: true }))?.regression).toBe(false);
    const baseFailed = compareWithBaseline(pair({ score: 0.9 }, { diverged: true }))!;
    expect(baseFailed.candidates[0]).toMatchObject({ best: 0.9, worse_best: null, worse_final: null, steps_to_baseline_level: null, baseline_steps_to_level: null, regression: false });
    expect(baseFailed.baseline_best).toBeNull();
  });

  it("names every failure of an all-failed candidate, and only the failed runs of a candidate", () => {
    const e = sweep({ main: { params: { change: "main" }, score: 0.5 }, "pr-1": { params: { change: "pr", seed: 1 }, diverged: true }, "pr-2": { params: { change: "pr", seed: 2 }, trainLossDiverged: true, score: 0.5 } }, { baseline: "main" });
    expect(compareWithBaseline(e)!.candidates[0]!.reasons[0]).toBe("every run failed (val/loss ended non-finite after 9 finite points; train/loss ended non-finite) while the baseline finished");
    // The failures are quoted up to 200 characters.
    const long = sweep({ main: { params: { change: "main" }, score: 0.5 }, pr: { params: { change: "pr" }, errors: { TrainingArtifactsAnalyzer: "x".repeat(400) } } }, { baseline: "main" });
    expect(compareWithBaseline(long)!.candidates[0]!.reasons[0]).toBe(`every run failed (${`analysis failed: TrainingArtifactsAnalyzer: ${"x".repeat(400)}`.slice(0, 200)}) while the baseline finished`);
    const some = sweep({ main: { params: { change: "main" }, score: 0.5 }, "pr-1": { params: { change: "pr", seed: 1 }, diverged: true }, "pr-2": { params: { change: "pr", seed: 2 }, score: 0.5 } }, { baseline: "main" });
    expect(compareWithBaseline(some)!.candidates[0]).toMatchObject({ runs: ["pr-1", "pr-2"], failed: ["pr-1"], best: 0.5, regression: false });
  });

  it("counts a worsening equal to a zero threshold as none: identical levels without noise", () => {
    const still = { noise: 0 };
    expect(compareWithBaseline(pair({ ...still, score: 0.5, final: 0.6 }, { ...still, score: 0.5 }))?.regression).toBe(false);
    expect(compareWithBaseline(pair({ ...still, score: 0.6, final: 0.5 }, { ...still, score: 0.5 }))?.regression).toBe(false);
    expect(compareWithBaseline(pair({ ...still, score: 0.6, final: 0.6 }, { ...still, score: 0.5 }))?.candidates[0]?.critical).toBe(0);
  });

  it("counts a curve point exactly at the baseline's level as reaching it", () => {
    const critical = compareWithBaseline(pair({ score: 0.5 }))!.candidates[0]!.critical;
    const e = pair({ score: 0.5, curve: [[2, 0.9], [6, 0.5 + critical], [10, 0.5]] }, { score: 0.5, curve: [[3, 0.5 + critical], [8, 0.5]] });
    const c = compareWithBaseline(e)!.candidates[0]!;
    expect([c.steps_to_baseline_level, c.baseline_steps_to_level]).toEqual([6, 3]);
  });

  it("says when a regressing candidate's first run did reach the baseline's level, and leaves it out when the baseline's kept curve never did", () => {
    // Eight seeds, the first as good as the baseline: the mean is worse beyond Welch's threshold, the first run reached the level.
    const cand = seeds({ change: "pr" }, [0.52, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7], "pr", {});
    cand["pr-1"] = { ...cand["pr-1"]!, curve: [[2, 0.9], [5, 0.52]] };
    const e = sweep({ ...seeds({ change: "main" }, [0.49, 0.5, 0.51, 0.5], "main"), ...cand }, { baseline: "main-1" });
    const c = compareWithBaseline(e)!.candidates[0]!;
    expect(c.regression).toBe(true);
    expect(c.reasons[1]).toBe("reached the baseline's level at step 5 (baseline: 10)");
    // The baseline's downsampled curve missed its best point: no step to compare with.
    const missed = compareWithBaseline(pair({ score: 0.6 }, { score: 0.5, curve: [[1, 0.9], [10, 0.6]] }))!.candidates[0]!;
    expect(missed.regression).toBe(true);
    expect(missed.baseline_steps_to_level).toBeNull();
    expect(missed.reasons).toHaveLength(1);
  });

  it("lists the medium-or-worse per-run findings the candidate has and the baseline has not, with a regression", () => {
    const findings = [runFinding("training.overfitting", "medium"), runFinding("training.lr_too_high", "high"), runFinding("training.noisy_loss", "low"), runFinding("training.dead_units", "medium")];
    const e = pair({ score: 0.6, findings }, { score: 0.5, findings: [runFinding("training.overfitting", "high")] });
    const c = compareWithBaseline(e)!.candidates[0]!;
    expect(c.new_findings).toEqual(["training.dead_units", "training.lr_too_high"]);
    expect(c.reasons.at(-1)).toBe("new per-run findings: training.dead_units, training.lr_too_high");
    const quiet = compareWithBaseline(pair({ score: 0.5, findings }))!.candidates[0]!;
    expect(quiet.new_findings).toEqual(["training.dead_units", "training.lr_too_high", "training.overfitting"]);
    expect(quiet.reasons).toEqual([]);
  });

  it("grades its confidence by how far past the threshold, lower when the noise is the curves'", () => {
    // 0.1 / 0.0329 = 3.04 thresholds: 0.55 + 0.35·tanh(2.04) = 0.888, ×0.85 (2 runs), ×0.8 (curve noise).
    expect(regression(pair({ score: 0.6 }))?.confidence).toBe(0.6);
    const threeSeeds = sweep({ ...seeds({ change: "main" }, [0.49, 0.5, 0.51], "main"), ...seeds({ change: "pr" }, [0.59, 0.6, 0.61], "pr") }, { baseline: "main-2" });
    const c = compareWithBaseline(threeSeeds)!.candidates[0]!;
    expect(c.noise.source).toBe("seeds");
    expect(c.noise.df).toBeCloseTo(4, 10);
    expect(regression(threeSeeds)?.description).toContain(": pr-1, pr-2, pr-3 (change=pr): best val/loss");
    expect(regression(threeSeeds)?.evidence[0]?.text).toMatch(/^pr-1, pr-2, pr-3: best val\/loss/);
    const f = regression(threeSeeds)!;
    expect(f.confidence).toBeGreaterThan(0.7);
    expect(c.final).toBeCloseTo(0.6, 10);
    expect(compareWithBaseline(threeSeeds)).toMatchObject({ baseline_final: expect.closeTo(0.5, 10), noise: { source: "seeds", df: 4 } });
    expect(f.evidence[0]?.n_points).toBe(6);
    expect(f.evidence[0]?.values?.df).toBeCloseTo(4, 10);
  });

  it("compares every other configuration, and only against a baseline that is one of the runs", () => {
    const e = sweep({ main: { params: { change: "main" }, score: 0.5 }, a: { params: { change: "a" }, score: 0.6 }, b: { params: { change: "b" }, score: 0.5 } }, { baseline: "main" });
    const comparison = compareWithBaseline(e)!;
    expect(comparison.candidates.map((c) => [c.runs, c.regression])).toEqual([
      [["a"], true],
      [["b"], false],
    ]);
    expect(comparison).toMatchObject({ baseline: "main", baseline_runs: ["main"], baseline_best: 0.5, baseline_final: 0.5, regression: true });
    expect(comparison.noise).toEqual({ sigma: expect.closeTo(0.01, 10), df: null, source: "curves" });
    expect(regression(e)!.description).toContain("1 configuration(s) regress against the baseline main on val/loss: a (change=a)");
    expect(compareWithBaseline(sweep({ main: { params: { change: "main" }, score: 0.5 } }, { baseline: "nobody" }))).toBeNull();
    expect(detectRegression(e, null)).toEqual([]);
  });
});

describe("EX-05 with several regressing candidates", () => {
  const base = { main: { params: { change: "main" }, score: 0.5 } };

  it("is critical when any regressing candidate failed outright", () => {
    const e = sweep({ ...base, a: { params: { change: "a" }, score: 0.6 }, b: { params: { change: "b" }, diverged: true } }, { baseline: "main" });
    expect(regression(e)?.severity).toBe("critical");
  });

  it("takes its confidence from the strongest regression, lowered if any rests on curve noise", () => {
    // 0.1 / 0.0329 (the strongest) sets it, not 0.04 / 0.0329.
    const e = sweep({ ...base, a: { params: { change: "a" }, score: 0.6 }, b: { params: { change: "b" }, score: 0.54 } }, { baseline: "main" });
    expect(regression(e)?.confidence).toBe(0.6);
    // a: its own seeds (t(0.99, 2)); b: curves. 0.4 / 0.0804 → 0.90, ×0.85 (5 runs), ×0.8 (b's curve noise).
    const mixed = sweep({ ...base, ...seeds({ change: "a" }, [0.9, 0.91, 0.89], "a"), b: { params: { change: "b" }, score: 0.6 } }, { baseline: "main" });
    expect(regression(mixed)?.evidence.map((x) => x.values?.noise_source)).toEqual(["seeds", "curves"]);
    expect(regression(mixed)?.confidence).toBe(0.61);
  });

  it("describes four candidates and gives evidence for ten, each with its runs, configuration and reasons", () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`c${String(i).padStart(2, "0")}`, { params: { change: `c${i}` }, score: 0.6 + i / 100 } as RunInput]));
    const f = regression(sweep({ ...base, ...many }, { baseline: "main" }))!;
    expect(f.evidence).toHaveLength(10);
    expect(f.description).toContain("11 configuration(s) regress");
    expect(f.description).toContain("c00 (change=c0): best val/loss 0.6 vs 0.5 and final 0.6 vs 0.5: worse by 0.1 and 0.1, both beyond the noise threshold 0.0329 (σ = 0.01 from the runs' own curves); never reached the baseline's level 0.5329 (the baseline did at step 10). c01 (change=c1)");
    expect(f.description).not.toContain("c04 (");
    expect(f.evidence[0]?.text).toBe("c00: best val/loss 0.6 vs 0.5 and final 0.6 vs 0.5: worse by 0.1 and 0.1, both beyond the noise threshold 0.0329 (σ = 0.01 from the runs' own curves); never reached the baseline's level 0.5329 (the baseline did at step 10).");
    const two = regression(sweep({ ...base, a: { params: { change: "a" }, score: 0.6, findings: [runFinding("training.x", "high")] } }, { baseline: "main" }))!;
    expect(two.evidence[0]?.text).toContain("(the baseline did at step 10); new per-run findings: training.x.");
  });
});

describe("EX-06 pick: the best configuration's best run", () => {
  it("picks the best seed of the best configuration, naming the mean over its seeds and the step of its best", () => {
    const e = sweep({ ...seeds({ arch: "a" }, [0.5, 0.48, 0.52], "a", { bestStep: 7 }), ...seeds({ arch: "b" }, [0.7, 0.71, 0.69], "b") });
    const [f] = detectPick(e);
    expect(f?.title).toBe("Pick a-2");
    expect(f?.description).toContain("0.48 (mean over 3 seeds 0.5), configuration arch=a");
    expect(f?.description).toContain("beyond noise");
    expect(f?.evidence[0]?.text).toContain("at step 7");
    expect(f?.evidence[0]).toMatchObject({ observed: 0.48, n_points: 3, values: { run: "a-2", config_mean: 0.5, tied_configs: 0 } });
    expect(f?.confidence).toBe(0.8);
    expect(f?.recommendation?.action).toBe("Use a-2's configuration (arch=a)");
  });

  it("picks the highest accuracy, at the step of the maximum", () => {
    const e = sweep({ ...seeds({ arch: "a" }, [0.9, 0.92], "a", { bestStep: 12 }), ...seeds({ arch: "b" }, [0.7, 0.71], "b") }, { objective: VAL_ACC });
    const [f] = detectPick(e);
    expect(f?.title).toBe("Pick a-2");
    expect(f?.evidence[0]?.text).toContain("at step 12");
  });

  it("names ties within noise and is less sure then", () => {
    const [f] = detectPick(sweep({ ...single("a", 0.5), ...single("b", 0.501) }));
    expect(f?.title).toBe("Pick a");
    expect(f?.confidence).toBe(0.5);
    expect(f?.description).toContain("Its lead over 1 other configuration(s) is within noise");
    expect(f?.description).not.toContain("seeds");
    expect(f?.recommendation?.action).toContain(", or the cheapest of the configurations tied with it");
    expect(f?.evidence[0]?.values?.tied_configs).toBe(1);
  });

  it("picks the one finished run among failed ones, wherever it comes, with no tie and no mean over seeds", () => {
    const failed = (arch: string): Record<string, RunInput> => ({ [arch]: { params: { arch }, diverged: true } });
    const [f] = detectPick(sweep({ ...failed("x"), ...failed("y"), ...single("a", 0.5, { noise: 0 }) }));
    expect(f?.title).toBe("Pick a");
    expect(f?.confidence).toBe(0.8);
    expect(f?.description).toContain("a has the best val/loss: 0.5, configuration arch=a.");
    expect(f?.evidence[0]?.values?.tied_configs).toBe(0);
    expect(detectPick(sweep({ ...failed("x"), ...single("a", 0.5, { noise: 0 }), ...single("b", 0.6, { noise: 0 }) }))).toEqual([]);
  });

  it("picks a lone finished run even without noise to judge by, and nothing among several without it", () => {
    const [f] = detectPick(sweep({ ...single("a", 0.5, { noise: 0 }), b: { params: { arch: "b" }, diverged: true } }));
    expect(f?.title).toBe("Pick a");
    // The other configuration failed: there is no lead to call beyond noise.
    expect(f?.description).not.toContain("noise.");
    expect(detectPick(sweep({ ...single("a", 0.5), b: { params: { arch: "b" }, diverged: true } }))[0]?.description).not.toContain("noise.");
    expect(detectPick(sweep({ ...single("a", 0.5, { noise: 0 }), ...single("b", 0.6, { noise: 0 }) }))).toEqual([]);
    expect(detectPick(sweep({ a: { params: { arch: "a" }, diverged: true } }))).toEqual([]);
    const [one] = detectPick(sweep({ ...single("a", 0.5) }));
    expect(one?.description).toMatch(/configuration \(one configuration\)\. $/);
  });
});
