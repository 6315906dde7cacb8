import { describe, expect, it } from "vitest";
import { detectFailedRuns, sharedCause } from "../../../nodes/experiment/detectors/failed-runs.js";
import { detectDeterministicSeeds, detectNoSeedReplicates } from "../../../nodes/experiment/detectors/seed-replicates.js";
import { detectSharedRunFindings } from "../../../nodes/experiment/detectors/shared-findings.js";
import type { Experiment } from "../../../nodes/experiment/model.js";
import { grid, type RunInput, runFinding, sweep, VAL_ACC } from "./runs.js";

const failedRuns = (e: Experiment) => detectFailedRuns(e)[0];
const causeOf = (e: Experiment) => sharedCause(e, e.runs.filter((r) => r.failure), e.runs.filter((r) => !r.failure));

describe("EX-04 failed runs and what they share", () => {
  it("names a numeric threshold every failed run is past and no finished run reaches", () => {
    const high = sweep(grid("lr", [[1e-4, 0.5], [3e-4, 0.45], [1e-3, undefined], [3e-3, undefined]]));
    const f = failedRuns(high);
    expect(f?.title).toBe("Runs with lr ≥ 0.001 failed");
    expect(f?.description).toContain("Every run with lr ≥ 0.001 failed (2 of 2) and no run outside it did.");
    expect(f?.evidence[0]).toMatchObject({ rule_id: "EX-04", artifact: "runs", observed: 2, text: "2 failed run(s) of 4; shared: lr ≥ 0.001." });
    expect(f?.evidence[0]?.values).toEqual({ runs: 4, failed_share: 0.5, shared_cause: "lr ≥ 0.001", failed_runs: "lr-0.001, lr-0.003" });
    expect(f?.recommendation?.action).toContain("Leave lr ≥ 0.001 out of the search space");
    // 2 failed of 4: 0.55 + 0.35·tanh(1), ×0.85 (4 runs), ×1.2 (the shared cause).
    expect(f?.confidence).toBe(0.83);
    const low = sweep(grid("lr", [[1e-5, undefined], [3e-5, undefined], [1e-4, 0.5]]));
    expect(failedRuns(low)?.title).toBe("Runs with lr ≤ 0.00003 failed");
  });

  it("names no threshold when a finished run sits at the failed runs' own value", () => {
    const e = sweep({ ...grid("lr", [[1e-4, 0.5], [1e-3, undefined], [3e-3, undefined]]), "lr-0.001-again": { params: { lr: 1e-3 }, score: 0.4 } });
    expect(causeOf(e)).toBeNull();
    const f = failedRuns(e);
    expect(f?.title).toBe("2 of 4 runs failed");
    expect(f?.evidence[0]?.values?.shared_cause).toBeNull();
    expect(f?.recommendation?.action).toBe("Read the failed runs' own diagnoses and fix what made them fail before comparing configurations");
    expect(f?.confidence).toBe(0.69);
    expect(f?.description.endsWith("(val/loss ended non-finite after 9 finite points).")).toBe(true);
    expect(f?.evidence[0]?.text).toBe("2 failed run(s) of 4.");
    const below = sweep({ ...grid("lr", [[1e-5, undefined], [3e-5, undefined], [1e-4, 0.5]]), again: { params: { lr: 3e-5 }, score: 0.4 } });
    expect(causeOf(below)).toBeNull();
  });

  it("names a value of a categorical parameter every failed run has and no finished run", () => {
    const e = sweep(grid("optimizer", [["sgd", 0.5], ["adam", undefined], ["rmsprop", 0.6]]));
    // One failed run is not a pattern, even with a value of its own.
    expect(failedRuns(e)?.title).toBe("1 of 3 runs failed");
    expect(failedRuns(e)?.evidence[0]?.values?.shared_cause).toBeNull();
    const two = sweep({ ...grid("optimizer", [["sgd", 0.5], ["rmsprop", 0.6]]), a1: { params: { optimizer: "adam", seed: 1 }, diverged: true }, a2: { params: { optimizer: "adam", seed: 2 }, diverged: true } });
    expect(causeOf(two)).toBe("optimizer = adam");
    expect(failedRuns(two)?.title).toBe("Runs with optimizer = adam failed");
    const mixed = sweep({ ...grid("optimizer", [["sgd", 0.5], ["adam", undefined]]), a2: { params: { optimizer: "adam", seed: 2 }, diverged: true }, a3: { params: { optimizer: "adam", seed: 3 }, score: 0.7 } });
    expect(causeOf(mixed)).toBeNull();
  });

  it("reads a numeric value as a category when a finished run's value is not a number", () => {
    const e = sweep({ ...grid("width", [[64, undefined], [128, undefined]]), auto: { params: { width: "auto" }, score: 0.5 }, wide: { params: { width: 32 }, score: 0.6 } });
    expect(causeOf(e)).toBeNull();
    const same = sweep({ w1: { params: { width: 64, seed: 1 }, diverged: true }, w2: { params: { width: 64, seed: 2 }, diverged: true }, auto: { params: { width: "auto" }, score: 0.5 } });
    expect(causeOf(same)).toBe("width = 64");
  });

  it("skips a parameter some failed run did not log", () => {
    const e = sweep({
      ok1: { params: { dropout: 0.1, lr: 1e-4 }, score: 0.5 },
      ok2: { params: { dropout: 0.2, lr: 3e-4 }, score: 0.5 },
      bad1: { params: { lr: 1e-2 }, diverged: true },
      bad2: { params: { lr: 3e-2 }, diverged: true },
    });
    expect(causeOf(e)).toBe("lr ≥ 0.01");
  });

  it("names no cause when every run failed", () => {
    const e = sweep(grid("lr", [[1, undefined], [2, undefined], [3, undefined]]));
    expect(causeOf(e)).toBeNull();
    const f = failedRuns(e);
    expect(f?.title).toBe("3 of 3 runs failed");
    expect(f?.severity).toBe("high");
  });

  it("is high from a quarter of the runs failed, medium below; names one failed run without a cause", () => {
    const quarter = failedRuns(sweep(grid("lr", [[1, 0.5], [2, 0.4], [3, 0.45], [4, undefined]])));
    expect([quarter?.severity, quarter?.title]).toEqual(["high", "1 of 4 runs failed"]);
    expect(quarter?.evidence[0]?.values?.failed_share).toBe(0.25);
    const fifth = failedRuns(sweep(grid("lr", [[1, 0.5], [2, 0.4], [3, 0.45], [4, 0.42], [5, undefined]])));
    expect(fifth?.severity).toBe("medium");
    expect(fifth?.evidence[0]?.values?.failed_share).toBe(0.2);
    expect(failedRuns(sweep(grid("lr", [[1, 0.5], [2, 0.4]])))).toBeUndefined();
  });

  it("says why each run failed, five at most in the description and twenty in evidence", () => {
    const e = sweep({
      ok: { params: { k: 0 }, score: 0.5 },
      nan: { params: { k: 1 }, diverged: true },
      train: { params: { k: 2 }, score: 0.5, trainLossDiverged: true },
      found: { params: { k: 3 }, score: 0.5, findings: [{ id: "training.divergence", title: "Training diverged", severity: "high", confidence: 0.9 }] },
      missing: { params: { k: 4 } },
      broken: { params: { k: 5 }, errors: { TrainingArtifactsAnalyzer: "could not read" } },
      late: { params: { k: 6 }, diverged: true },
    });
    const f = failedRuns(e)!;
    expect(f.description).toContain("6 of 7 runs failed or diverged: nan (val/loss ended non-finite after 9 finite points); train (train/loss ended non-finite); found (Training diverged [training.divergence]); missing (val/loss was not logged); broken (analysis failed: TrainingArtifactsAnalyzer: could not read); …");
    expect(f.description).not.toContain("late (");
    expect(f.evidence[0]?.values?.failed_runs).toBe("nan, train, found, missing, broken, late");
    const many = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`r${i}`, { params: { k: i }, diverged: true } as RunInput]));
    const all = failedRuns(sweep({ ...many, ok: { params: { k: 99 }, score: 0.5 } }))!;
    expect(String(all.evidence[0]?.values?.failed_runs).split(", ")).toHaveLength(20);
    expect(failedRuns(sweep(grid("lr", [[1, 0.5], [2, undefined]])))!.description).not.toContain("…");
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`r${i}`, { params: { k: i }, diverged: true } as RunInput]));
    expect(failedRuns(sweep({ ...five, ok: { params: { k: 2.5 }, score: 0.5 } }))!.description).toMatch(/r4 \(val\/loss ended non-finite after 9 finite points\)\.$/);
  });
});

describe("EX-07 per-run findings shared by ≥ 2 runs", () => {
  const withFindings = (lists: RunInput["findings"][]) => sweep(Object.fromEntries(lists.map((findings, i) => [`r${i}`, { params: { k: i }, score: 0.5, findings }])));

  it("groups a finding of two runs, not of one, and counts a run once", () => {
    const of = runFinding;
    const e = withFindings([[of("a.x", "low"), of("a.x", "low")], [of("a.x", "low"), of("a.once", "high")], []]);
    const [f] = detectSharedRunFindings(e);
    expect(f?.evidence.map((x) => [x.values?.finding_id, x.observed])).toEqual([["a.x", 2]]);
    expect(f?.evidence[0]?.text).toBe("a.x (low at worst) in 2 of 3 runs: r0, r1.");
    expect(f?.description).toContain("title of a.x [a.x] in 2 of 3 runs");
    expect(detectSharedRunFindings(withFindings([[of("a.x", "high")], [of("a.y", "high")]]))).toEqual([]);
  });

  it("is as severe as what more than half the runs share: exactly half is not the setup's problem", () => {
    const of = runFinding;
    const half = withFindings([[of("a.x", "high")], [of("a.x", "medium")], [of("b.y", "low")], [of("b.y", "low")]]);
    expect(detectSharedRunFindings(half)[0]?.severity).toBe("info");
    const most = withFindings([[of("a.x", "high")], [of("a.x", "medium")], [of("a.x", "low"), of("b.y", "low")], [of("b.y", "low")]]);
    const [f] = detectSharedRunFindings(most);
    expect(f?.severity).toBe("high");
    expect(f?.evidence[0]?.values).toEqual({ finding_id: "a.x", finding_severity: "high", runs: 4 });
  });

  it("orders by severity, then by how many runs, then by id; its confidence is the highest seen", () => {
    const of = runFinding;
    const e = withFindings([
      [of("c.low", "low", 0.3), of("b.med", "medium", 0.6), of("a.med", "medium", 0.4)],
      [of("c.low", "low", 0.9), of("b.med", "medium"), of("a.med", "medium")],
      [of("c.low", "low"), of("b.med", "medium")],
    ]);
    const [f] = detectSharedRunFindings(e);
    expect(f?.evidence.map((x) => x.values?.finding_id)).toEqual(["b.med", "a.med", "c.low"]);
    expect(f?.confidence).toBe(0.9);
    expect(f?.recommendation).toBeNull();
    // Equal severities: more runs first, before the id.
    const byCount = withFindings([[of("a.med", "medium"), of("b.med", "medium")], [of("a.med", "medium"), of("b.med", "medium")], [of("b.med", "medium")]]);
    expect(detectSharedRunFindings(byCount)[0]?.evidence.map((x) => x.values?.finding_id)).toEqual(["b.med", "a.med"]);
  });

  it("takes the worst of the findings most runs share", () => {
    const of = runFinding;
    const e = withFindings([[of("b.low", "low"), of("a.high", "high")], [of("b.low", "low"), of("a.high", "high")], [of("b.low", "low"), of("a.high", "high")], []]);
    expect(detectSharedRunFindings(e)[0]?.severity).toBe("high");
  });

  it("lists six findings in its description and ten runs per finding", () => {
    const ids = Array.from({ length: 7 }, (_, i) => runFinding(`x.f${i}`, "low"));
    const e = withFindings(Array.from({ length: 12 }, () => ids));
    const [f] = detectSharedRunFindings(e);
    expect(f?.evidence).toHaveLength(7);
    expect(f?.description).toContain("[x.f5] in 12 of 12 runs; ….");
    expect(f?.description).not.toContain("[x.f6]");
    expect(f?.description).toContain("in 12 of 12 runs; title of x.f1 [x.f1]");
    const six = detectSharedRunFindings(withFindings(Array.from({ length: 2 }, () => ids.slice(0, 6))))[0]!;
    expect(six.description).toContain("[x.f5] in 2 of 2 runs. A problem shared by most runs");
    const ten = detectSharedRunFindings(withFindings(Array.from({ length: 10 }, () => [ids[0]!])))[0]!;
    expect(ten.evidence[0]?.text).toBe("x.f0 (low at worst) in 10 of 10 runs: r0, r1, r2, r3, r4, r5, r6, r7, r8, r9.");
    expect(f?.evidence[0]?.text).toBe("x.f0 (low at worst) in 12 of 12 runs: r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, ….");
    const few = detectSharedRunFindings(withFindings([[ids[0]!], [ids[0]!]]))[0]!;
    expect(few.description).not.toContain("…");
    expect(few.evidence[0]?.text).not.toContain("…");
  });
});

describe("EX-08 and EX-09: seed replicates", () => {
  const seeds = (config: Record<string, string | number>, scores: number[], prefix: string): Record<string, RunInput> =>
    Object.fromEntries(scores.map((score, i) => [`${prefix}-${i + 1}`, { params: { ...config, seed: i + 1 }, score }]));

  it("notes that no configuration was repeated when two runs finished, each its own", () => {
    const [f] = detectNoSeedReplicates(sweep(grid("lr", [[1, 0.5], [2, 0.6], [3, 0.7]])));
    expect(f?.evidence[0]).toMatchObject({ rule_id: "EX-08", observed: 0, noise_estimate: 0.01, values: { configs: 3, runs: 3 } });
    expect(f?.description).toContain("None of the 3 runs shares its configuration");
    expect(f?.description).toContain("(seed parameters: none logged)");
    expect(f?.description).toContain("(σ = 0.01)");
    const logged = detectNoSeedReplicates(sweep({ a: { params: { lr: 1, seed: 1, data_seed: 1 }, score: 0.5 }, b: { params: { lr: 2, seed: 2, data_seed: 2 }, score: 0.6 } }))[0];
    expect(logged?.description).toContain("(seed parameters: data_seed, seed)");
  });

  it("says nothing with fewer than two finished runs, or when a configuration was repeated", () => {
    expect(detectNoSeedReplicates(sweep(grid("lr", [[1, 0.5], [2, undefined]])))).toEqual([]);
    expect(detectNoSeedReplicates(sweep({ ...seeds({ lr: 1 }, [0.5, 0.52], "a"), ...grid("lr", [[2, 0.6]]) }))).toEqual([]);
    expect(detectNoSeedReplicates(sweep({ ...seeds({ lr: 1 }, [0.5, 0.5], "a"), ...grid("lr", [[2, 0.6]]) }))).toEqual([]);
  });

  it("finds replicates identical to rounding (spread ≤ 1e-9 of the mean), not ones that differ", () => {
    const e = sweep({ ...seeds({ depth: 4 }, [0.8, 0.8 + 1e-12], "d4"), ...grid("depth", [[6, 0.7]]) }, { objective: VAL_ACC });
    const [f] = detectDeterministicSeeds(e);
    expect(f?.evidence).toHaveLength(1);
    expect(f?.evidence[0]).toMatchObject({ rule_id: "EX-09", threshold: 8e-10, n_points: 2, values: { runs: 2, mean: expect.closeTo(0.8, 10) } });
    expect(Number(f?.evidence[0]?.observed)).toBeLessThan(1e-11);
    expect(f?.evidence[0]?.text).toContain("depth=4: d4-1, d4-2 all at 0.8");
    expect(f?.description).toContain("1 configuration(s) run with several seeds (depth=4: 2 runs at 0.8)");
    expect(f?.description).toContain("The seed parameter (seed)");
    expect(f?.description).toContain("the noise between runs is taken from each run's own evaluation-to-evaluation spread (σ = 0.01)");
    expect(detectDeterministicSeeds(sweep({ ...seeds({ depth: 4 }, [0.8, 0.8 + 1e-6], "d4"), ...grid("depth", [[6, 0.7]]) }))).toEqual([]);
  });

  it("says configurations with seeds that vary are judged by them", () => {
    const e = sweep({ ...seeds({ depth: 4 }, [0.8, 0.8], "d4"), ...seeds({ depth: 6 }, [0.7, 0.72], "d6") });
    const [f] = detectDeterministicSeeds(e);
    expect(f?.description).toContain("those configurations are judged by the runs' own evaluation noise, the others by their seeds");
  });

  it("lists four identical configurations in its description and ten in evidence", () => {
    const many = Object.assign({}, ...Array.from({ length: 11 }, (_, i) => seeds({ depth: i + 1 }, [0.5 + i / 100, 0.5 + i / 100], `d${i + 1}`)));
    const [f] = detectDeterministicSeeds(sweep(many));
    expect(f?.evidence).toHaveLength(10);
    expect(f?.description).toContain("11 configuration(s)");
    expect(f?.description).toContain("depth=4: 2 runs at 0.53; …)");
    expect(f?.description).not.toContain("depth=5:");
    expect(f?.description).toContain("depth=1: 2 runs at 0.5; depth=2: 2 runs at 0.51");
    const one = detectDeterministicSeeds(sweep(seeds({ depth: 4 }, [0.5, 0.5], "d")));
    expect(one[0]?.description).not.toContain("…");
    const four = Object.assign({}, ...Array.from({ length: 4 }, (_, i) => seeds({ depth: i + 1 }, [0.5 + i / 100, 0.5 + i / 100], `d${i + 1}`)));
    expect(detectDeterministicSeeds(sweep(four))[0]?.description).toContain("depth=4: 2 runs at 0.53) gave the same");
  });

  it("states the largest spread among identical replicates, and 'none logged' without a seed parameter", () => {
    const e = sweep({ ...seeds({ depth: 4 }, [0.8, 0.8], "d4"), ...seeds({ depth: 6 }, [0.5, 0.5 + 1e-11], "d6") });
    const spread = e.groups.find((g) => g.params.depth === "6")!.spread!;
    expect(spread).toBeGreaterThan(0);
    const [f] = detectDeterministicSeeds(e);
    expect(f?.description).toContain(`(spread ≤ ${Number(spread.toPrecision(4))})`);
    expect(f?.description).toContain("The seed parameter (seed)");
    const unnamed = sweep({ a: { params: { depth: 4 }, score: 0.8 }, b: { params: { depth: 4 }, score: 0.8 }, c: { params: { depth: 6 }, score: 0.7 } });
    expect(detectDeterministicSeeds(unnamed)[0]?.description).toContain("The seed parameter (none logged)");
  });
});
