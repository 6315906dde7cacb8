import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passThroughKnowledge } from "../support/analysis-deps.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const sampleText = (name: string) => readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), "utf8");
const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>`;

/** Elements and CSS that make a browser fetch or run something by itself (links a person clicks are fine). */
const FETCHING_MARKUP = /<(script|img|image|link|iframe|object|embed|source|video|audio|use|base|meta http-equiv)\b|url\(|@import/i;

async function postReport(url: string, body: string) {
  const res = await fetch(`${url}/v1/report`, { method: "POST", headers: { "content-type": "application/json" }, body });
  return { res, text: await res.text() };
}

describe("POST /v1/report", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
  });
  afterAll(() => svc.close());

  it("answers a self-contained HTML report that fetches nothing", async () => {
    const { res, text } = await postReport(svc.url, sampleText("tabular-healthy.json"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(text.startsWith("<!doctype html>")).toBe(true);
    expect(text).toMatch(/<style>[\s\S]*\.report[\s\S]*<\/style>/);
    expect(text.match(FETCHING_MARKUP)).toBeNull();
    expect(text).toContain("<h1>Diagnosis: credit-risk-balanced</h1>");
    for (const heading of ["Summary", "Findings", "Agents", "Node timings"]) expect(text).toContain(`<h2>${heading}</h2>`);
  });

  it("draws the training curves as inline SVG, with the logged series in the legend", async () => {
    const { text } = await postReport(svc.url, sampleText("tabular-healthy.json"));
    expect(text).toContain("<h2>Training curves</h2>");
    expect(text).toMatch(/<figure class="chart-panel" data-panel="loss">[\s\S]*<svg /);
    // The training analyzer's normalized names (train_loss → train/loss, learning_rate → lr).
    const drawn = [...text.matchAll(/data-series="([^"]+)"/g)].map((m) => m[1]);
    expect(drawn.sort()).toEqual(["lr", "train/auc", "train/loss", "val/auc", "val/loss"]);
  });

  it("escapes text from the request: names cannot become markup", async () => {
    const body = JSON.parse(sampleText("tabular-healthy.json"));
    body.dataset_name = HOSTILE;
    body.training_artifacts.metrics[HOSTILE] = body.training_artifacts.metrics.val_loss;
    const { res, text } = await postReport(svc.url, JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(text.match(FETCHING_MARKUP)).toBeNull();
    expect(text).toContain("Diagnosis: &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;");
  });

  it("answers a request that cannot be decoded like /v1/analyse does", async () => {
    const res = await postJson(`${svc.url}/v1/report`, sampleText("bad-request.json"));
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/^Error decoding request: training_artifacts/);
  });
});

describe("POST /debug/report", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" }, { knowledge: passThroughKnowledge() });
  });
  afterAll(() => svc.close());

  it("renders an analysis response as the report fragment the debug page shows, or as the whole page", async () => {
    const analysed = await postJson(`${svc.url}/v1/analyse`, sampleText("full-image-classification.json"));
    const fragment = await postJson(`${svc.url}/debug/report`, analysed.text);
    expect(fragment.status).toBe(200);
    expect(fragment.text.startsWith('<article class="report">')).toBe(true);
    const datasetFinding = analysed.json.agent_results.DatasetArtifactsAnalyzer.findings[0];
    expect(fragment.text).toContain(`<code>${datasetFinding.id}</code>`);
    const page = await postJson(`${svc.url}/debug/report?format=page`, analysed.text);
    expect(page.text.startsWith("<!doctype html>")).toBe(true);
    expect(page.text).toContain(fragment.text);
  });

  it("rejects a body that is not an analysis response with a 400 naming the field", async () => {
    const res = await postJson(`${svc.url}/debug/report`, { agent_results: {}, summary: null, error_messages: {}, dataset_name: null });
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe("Error decoding request: additional_outputs: Invalid input: expected record, received undefined; expected an analysis response");
  });
});
