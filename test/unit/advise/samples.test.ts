import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../config/logger.js";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import type { Recommendation } from "../../../domain/result.js";
import { loadCorpus } from "../../../knowledge/load-corpus.js";
import { analyzeRequest } from "../../../server/analyze-request.js";
import { Deadline } from "../../../graph/deadline.js";
import { createServiceRuntime, type ServiceRuntime } from "../../../server/runtime.js";

const known = new Set(loadCorpus().map((d) => d.id));
const SAMPLES = new URL("../../fixtures/samples/", import.meta.url);
const ANALYZABLE = [
  "full-image-classification.json",
  "legacy-python-client.json",
  "tabular-healthy.json",
  "llm-finetune-hf.json",
  "tabular-drift-evidently.json",
  "mlflow-logged-dataset.json",
];

let runtime: ServiceRuntime;
beforeAll(() => {
  runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent" });
});

async function analyze(file: string) {
  const body = parseTolerantJson(readFileSync(new URL(file, SAMPLES), "utf8"));
  return analyzeRequest(runtime, body, { requestId: file, logger: createLogger("silent"), deadline: new Deadline() });
}

describe("citations in responses for the sample artifacts (deterministic mode)", () => {
  it.each(ANALYZABLE)("%s: every recommendation is cited, every citation resolves, each cited document is listed once", async (file) => {
    const response = await analyze(file);
    const listed = (response.additional_outputs.citations as Array<{ id: string }>).map((c) => c.id);
    expect(new Set(listed).size).toBe(listed.length);
    const plan = response.additional_outputs.recommendations as Recommendation[];
    for (const r of [...plan, ...Object.values(response.agent_results).flatMap((a) => a.recommendations)]) {
      expect(r.citations.length, r.action).toBeGreaterThan(0);
      for (const id of r.citations) {
        expect(known.has(id), id).toBe(true);
        expect(listed, id).toContain(id);
      }
    }
    for (const f of Object.values(response.agent_results).flatMap((a) => a.findings)) {
      for (const id of f.citations) expect(listed, `${f.id} → ${id}`).toContain(id);
    }
  });

  it("plans the full image-classification sample around early stopping, imbalance and the label shift", async () => {
    const response = await analyze("full-image-classification.json");
    const plan = response.additional_outputs.recommendations as Array<Recommendation & { theme: string | null; priority: number }>;
    const ids = plan.flatMap((r) => r.finding_ids);
    expect(ids).toEqual(expect.arrayContaining(["training.overfitting", "dataset.class_imbalance"]));
    expect(plan.filter((r) => r.theme === "early_stopping")).toHaveLength(1);
    expect(response.additional_outputs.recommendation_groups).toEqual(
      expect.arrayContaining([expect.objectContaining({ category: "training" }), expect.objectContaining({ category: "data" })]),
    );
  });
});
