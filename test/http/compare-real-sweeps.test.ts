import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tQuantile } from "../../nodes/experiment/stats.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";
import { inlineRuns, realSweep } from "../support/real-sweeps.js";

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({});
});
afterAll(() => svc.close());

const ids = (findings: Array<{ id: string }>) => findings.map((f) => f.id);

describe("POST /v1/compare on real sweeps (test/fixtures/sweeps, scripts/fixtures/sweeps/generate.sh)", () => {
  it("XGBoost depth sweep, 3 seeds without subsampling: the identical replicates are named, noise comes from the curves", async () => {
    const res = await postJson(`${svc.url}/v1/compare`, { runs: inlineRuns(realSweep("xgboost-depth")) });
    expect(res.status).toBe(200);
    expect(res.json.noise).toMatchObject({ source: "curves", replicatedConfigs: 0, deterministicConfigs: 4 });
    // Not the ~1e-17 of bit-identical seeds: the runs' own evaluation noise.
    expect(res.json.noise.sigma).toBeGreaterThan(1e-5);
    const same = res.json.findings.find((f: { id: string }) => f.id === "experiment.deterministic_seeds");
    expect(same.description).toMatch(/^4 configuration\(s\) run with several seeds .* gave the same val\/loss to float rounding/);
    expect(ids(res.json.findings)).not.toContain("experiment.no_seed_replicates");
    expect(res.json.summary).toMatch(/the seed replicates are identical, training is deterministic/);
    expect(res.json.findings.find((f: { id: string }) => f.id === "experiment.pick").title).toMatch(/^Pick depth2-s[123]$/);
  });

  it("torch lr sweep: the clearly worse branch is a regression judged by its own noise, which a σ pooled with the noisy branch would hide", async () => {
    const res = await postJson(`${svc.url}/v1/compare`, { runs: inlineRuns(realSweep("torch-lr")), baseline: "lr0.02-s1" });
    expect(res.status).toBe(200);
    const [slow, noisy] = res.json.baseline_comparison.candidates;
    expect(slow.runs).toEqual(["lr0.002-s1", "lr0.002-s2", "lr0.002-s3"]);
    expect(slow.regression).toBe(true);
    expect(slow.noise.source).toBe("seeds");
    expect(slow.noise.df).toBeGreaterThan(2);
    expect(slow.noise.df).toBeLessThan(4);
    // The sweep-wide pooled σ (dominated by lr=0.14's seeds) would have set the bar above the real gap.
    const pooled = tQuantile(0.99, res.json.noise.df) * res.json.noise.sigma * Math.sqrt(2 / 3);
    expect(slow.worse_best).toBeLessThan(pooled);
    expect(slow.worse_best).toBeGreaterThan(slow.critical);
    // The noisy branch is too noisy to call either way with three seeds.
    expect(noisy.runs).toEqual(["lr0.14-s1", "lr0.14-s2", "lr0.14-s3"]);
    expect(noisy.regression).toBe(false);
    expect(noisy.noise.sigma).toBeGreaterThan(5 * slow.noise.sigma);
    const regression = res.json.findings.find((f: { id: string }) => f.id === "experiment.regression");
    expect(regression.severity).toBe("high");
    // The slow branch was still improving when it stopped: its own finding reaches the comparison.
    const slowRun = res.json.runs.find((r: { name: string }) => r.name === "lr0.002-s1");
    expect(ids(slowRun.top_findings)).toContain("training.still_improving");
    const shared = res.json.findings.find((f: { id: string }) => f.id === "experiment.shared_run_findings");
    expect(shared.description).toMatch(/training\.still_improving\] in \d of 9 runs/);
  });
});
