import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../support/http-service.js";
import { lrGrid, type RunSpec, syntheticRun } from "../support/synthetic-sweep.js";

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ SERVICE_MAX_COMPARE_RUNS: "20" });
});
afterAll(() => svc.close());

const compare = (body: unknown) => postJson(`${svc.url}/v1/compare`, body);
const runs = (specs: RunSpec[]) => specs.map((s) => syntheticRun(s));

describe("POST /v1/compare over HTTP", () => {
  it("analyses every run with the per-run graph and reasons across a seeded grid: boundary optimum, pick, cited literature", async () => {
    const res = await compare({ dataset_name: "cifar-synthetic", runs: runs(lrGrid([1e-4, 3e-4, 1e-3, 3e-3], [1, 2, 3], 3e-2)) });
    expect(res.status).toBe(200);
    const body = res.json;
    expect(body.dataset_name).toBe("cifar-synthetic");
    expect(body.objective).toEqual({ metric: "val/loss", direction: "minimize", inferred: true });
    expect(body.runs.map((r: { name: string }) => r.name).slice(0, 3)).toEqual(["lr0.0001-s1", "lr0.0001-s2", "lr0.0001-s3"]);
    const first = body.runs[0];
    expect(first.status).toBe("ok");
    expect(first.params).toEqual({ lr: "0.0001", seed: "1" });
    expect(typeof first.summary).toBe("string");
    expect(first.objective.best).toBeGreaterThan(first.objective.final - 0.1);
    expect(first.curve.steps.length).toBeLessThanOrEqual(64);
    const ids = body.findings.map((f: { id: string }) => f.id);
    expect(ids).toContain("experiment.boundary_optimum");
    expect(ids).toContain("experiment.pick");
    expect(body.findings.find((f: { id: string }) => f.id === "experiment.pick").title).toMatch(/^Pick lr0\.003-s\d$/);
    expect(body.noise).toMatchObject({ source: "seeds", df: 8, replicatedConfigs: 4 });
    // Per-run findings appear once, grouped across runs, not once per run.
    expect(ids.filter((id: string) => id.startsWith("training.")).length).toBe(0);
    const citations = body.citations.map((c: { id: string }) => c.id);
    expect(citations).toContain("search-space-boundaries");
    expect(body.recommendations.some((r: { action: string }) => /Extend the search range of lr past 0\.003/.test(r.action))).toBe(true);
    expect(body.summary).toMatch(/^12 run\(s\) in 4 configuration\(s\) compared on val\/loss/);
    expect(body.baseline_comparison).toBeNull();
  });

  it("finds a regression against the named baseline, and none against identical runs", async () => {
    const main: RunSpec[] = [1, 2, 3].map((seed) => ({ name: `main-${seed}`, params: { change: "main" }, level: 0.5, seed }));
    const worse = main.map((r) => ({ ...r, name: r.name.replace("main", "pr"), params: { change: "pr" }, level: 0.56, seed: r.seed + 10 }));
    const regressed = await compare({ runs: runs([...main, ...worse]), baseline: "main-1", objective: { metric: "val_loss" } });
    expect(regressed.status).toBe(200);
    expect(regressed.json.baseline_comparison.regression).toBe(true);
    expect(regressed.json.findings[0].id).toBe("experiment.regression");
    expect(regressed.json.citations.map((c: { id: string }) => c.id)).toContain("benchmark-variance");

    const same = main.map((r) => ({ ...r, name: r.name.replace("main", "copy"), params: { change: "copy" } }));
    const clean = await compare({ runs: runs([...main, ...same]), baseline: "main-1" });
    expect(clean.status).toBe(200);
    expect(clean.json.baseline_comparison.regression).toBe(false);
    expect(clean.json.summary).toMatch(/No regression against the baseline main-1 beyond noise/);
  });

  it("reports diverged runs as failed and what they share", async () => {
    const specs = [...lrGrid([1e-4, 1e-3], [1, 2], 1e-3), ...lrGrid([1e-2], [1, 2], 1e-3, { divergeAt: 10 })];
    const res = await compare({ runs: runs(specs) });
    expect(res.status).toBe(200);
    const failed = res.json.findings.find((f: { id: string }) => f.id === "experiment.failed_runs");
    expect(failed.title).toBe("Runs with lr ≥ 0.01 failed");
    expect(res.json.runs.filter((r: { status: string }) => r.status === "failed").map((r: { name: string }) => r.name)).toEqual(["lr0.01-s1", "lr0.01-s2"]);
  });

  it("draws the comparison as a self-contained HTML page: one scatter per swept parameter, failed runs marked, no script", async () => {
    const specs = [...lrGrid([1e-4, 1e-3], [1, 2], 1e-3), ...lrGrid([1e-2], [1, 2], 1e-3, { divergeAt: 10 })];
    const res = await fetch(`${svc.url}/v1/compare/report`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ runs: runs(specs), baseline: "lr0.001-s1", dataset_name: "<b>sweep</b>" }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain("<h1>Comparison: &lt;b&gt;sweep&lt;/b&gt;</h1>");
    expect(page.match(/<figure class="chart-panel" data-param="lr">/g)).toHaveLength(1);
    expect(page).not.toContain('data-param="seed"');
    // Two finished configurations × two seeds as dots (the baseline's two in orange), two failed runs as ✕.
    expect(page.match(/<circle /g)).toHaveLength(4);
    expect(page.match(/fill="#D55E00"/g)).toHaveLength(2);
    expect(page.match(/<title>lr0\.01-s\d failed: /g)).toHaveLength(2);
    expect(page).toContain("experiment.failed_runs");
    expect(page).not.toContain("<script");
  });

  it("answers 400 for an empty runs list and 413 naming the limit for too many runs", async () => {
    const empty = await compare({ runs: [] });
    expect(empty.status).toBe(400);
    expect(empty.json.detail).toMatch(/^Error decoding request: runs: at least one run is needed/);
    expect(empty.json.code).toBe("BAD_REQUEST");

    const many = await compare({ runs: runs(lrGrid([1e-3], Array.from({ length: 21 }, (_, i) => i + 1), 1e-3)) });
    expect(many.status).toBe(413);
    expect(many.json.code).toBe("PAYLOAD_TOO_LARGE");
    expect(many.json.detail).toMatch(/21 runs exceed the limit of 20 runs per comparison \(SERVICE_MAX_COMPARE_RUNS\)/);
  });

  it("refuses a baseline that names no run", async () => {
    const res = await compare({ runs: runs(lrGrid([1e-3], [1], 1e-3)), baseline: "main" });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/^Error decoding request: baseline: "main" names none of the runs/);
  });
});
