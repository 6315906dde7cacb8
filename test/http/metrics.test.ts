import { readFileSync } from "node:fs";
import parsePrometheusTextFormat, { type PrometheusFamily, type PrometheusSample } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const sample = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), "utf8"));

const byName = (families: PrometheusFamily[]) => new Map(families.map((f) => [f.name, f]));

/** GET /metrics as text, checked as Prometheus expects it served. */
async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/**
 * The samples of one labelled histogram by suffix (_bucket, _sum, _count), each with its labels. The parser folds
 * every series of a histogram family into one (the last series' buckets, no labels, no count), so the family's
 * TYPE line is dropped and the samples are read as the untyped families they then are; prom-client writes each
 * series' lines together, so one suffix comes back as several families, joined here.
 */
function histogramSamples(text: string, name: string): Map<string, PrometheusSample[]> {
  const samples = new Map<string, PrometheusSample[]>();
  for (const family of parsePrometheusTextFormat(text.replace(`# TYPE ${name} histogram\n`, ""))) {
    if (family.name.startsWith(`${name}_`)) samples.set(family.name.slice(name.length), [...(samples.get(family.name.slice(name.length)) ?? []), ...family.metrics]);
  }
  return samples;
}

describe("GET /metrics", () => {
  let svc: RunningService;
  let text: string;
  let families: Map<string, PrometheusFamily>;
  let spans: Array<{ node: string; outcome: string }>;
  beforeAll(async () => {
    svc = await startService();
    await fetch(`${svc.url}/healthz`);
    await fetch(`${svc.url}/v1/knowledge?q=validation+loss+rising`);
    const analysis = await postJson(`${svc.url}/v1/analyse`, { ...sample("full-image-classification.json"), trace: true });
    expect(analysis.status).toBe(200);
    spans = analysis.json.additional_outputs.trace.spans;
    text = await scrape(svc.url);
    families = byName(parsePrometheusTextFormat(text));
  });
  afterAll(() => svc.close());

  it("gives every family its HELP and TYPE, and names every counter _total", () => {
    expect(families.size).toBeGreaterThan(20);
    for (const family of families.values()) {
      expect(family.help, family.name).not.toBe("");
      expect(["COUNTER", "GAUGE", "HISTOGRAM", "SUMMARY"], family.name).toContain(family.type);
      if (family.type === "COUNTER") expect(family.name).toMatch(/_total$/);
    }
  });

  it("keeps the service's own families with their types", () => {
    const types = Object.fromEntries([...families.values()].map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      http_requests_total: "COUNTER",
      http_request_duration_seconds: "HISTOGRAM",
      analysis_node_duration_seconds: "HISTOGRAM",
      analyses_in_flight: "GAUGE",
      work_requests_open: "GAUGE",
      knowledge_cache_hits_total: "COUNTER",
      knowledge_cache_misses_total: "COUNTER",
      knowledge_cache_deduplicated_total: "COUNTER",
      knowledge_cache_evictions_total: "COUNTER",
      knowledge_cache_entries: "GAUGE",
      knowledge_cache_bytes: "GAUGE",
      knowledge_cache_hit_ratio: "GAUGE",
      job_queue_depth: "GAUGE",
      jobs_queued: "GAUGE",
      jobs_running: "GAUGE",
      jobs_done_total: "COUNTER",
      jobs_failed_total: "COUNTER",
      jobs_cancelled_total: "COUNTER",
      job_runs_analysed_total: "COUNTER",
      job_runs_queued: "GAUGE",
      job_runs_running: "GAUGE",
    });
    const healthz = families.get("http_requests_total")!.metrics.find((m) => m.labels?.route === "/healthz");
    expect(healthz).toMatchObject({ labels: { method: "GET", status: "200" }, value: "1" });
    expect(Number(families.get("knowledge_cache_misses_total")!.metrics[0]!.value)).toBeGreaterThanOrEqual(1);
    expect(families.get("analyses_in_flight")!.metrics[0]!.value).toBe("0");
  });

  it("times each node the analysis ran in its own histogram series, one observation per span", () => {
    expect(families.get("analysis_node_duration_seconds")!.type).toBe("HISTOGRAM");
    const samples = histogramSamples(text, "analysis_node_duration_seconds");
    const key = (labels: Record<string, string> = {}) => `${labels.node}/${labels.outcome}`;
    const counts = new Map(samples.get("_count")!.map((m) => [key(m.labels), Number(m.value)]));
    const expected = new Map<string, number>();
    for (const span of spans) expected.set(key(span), (expected.get(key(span)) ?? 0) + 1);
    expect([...expected.keys()]).toEqual(expect.arrayContaining(["analyzeDataset/ok", "analyzeTraining/ok", "integrate/ok", "advise/ok"]));
    expect(counts).toEqual(expected);
    // Buckets are cumulative: each series' +Inf bucket holds all its observations.
    const infinite = samples.get("_bucket")!.filter((m) => m.labels!.le === "+Inf");
    expect(new Map(infinite.map((m) => [key(m.labels), Number(m.value)]))).toEqual(expected);
  });

  it("includes the default process and event-loop families", () => {
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds", "nodejs_eventloop_lag_p99_seconds", "nodejs_gc_duration_seconds"]) {
      expect(families.has(name), name).toBe(true);
    }
  });
});
