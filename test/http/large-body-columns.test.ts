import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trainingHistoryRequest } from "../../bench/data/training-history.js";
import type { AnalysisResponse } from "../../graph/response.js";
import { WORKER_PARSE_MIN_BYTES } from "../../server/json-body.js";
import { type RunningService, startService } from "../support/http-service.js";

/**
 * A body from 1 MiB on is parsed on the worker pool and its long number arrays travel as columns, to the analysis
 * on a worker too (workers/number-columns.ts): the same request must answer alike either way. The same JSON is
 * sent compact (under 1 MiB: parsed and checked on the event loop) and indented (over it: parsed on the pool).
 */

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
});
afterAll(async () => {
  await svc.close();
});

/** The body as sent both ways: compact under WORKER_PARSE_MIN_BYTES, indented over it. */
function bothSizes(request: unknown): { small: string; large: string } {
  const small = JSON.stringify(request);
  const large = JSON.stringify(request, null, 8);
  expect(Buffer.byteLength(small)).toBeLessThan(WORKER_PARSE_MIN_BYTES);
  expect(Buffer.byteLength(large)).toBeGreaterThan(WORKER_PARSE_MIN_BYTES);
  return { small, large };
}

const post = async (body: string) => {
  const res = await fetch(`${svc.url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json" }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** A history of 6 metrics × 6000 steps, val_loss with gaps (nulls). */
function historyWithGaps() {
  const request = trainingHistoryRequest(6000) as { training_artifacts: { metrics: Record<string, unknown[]> } };
  const val = request.training_artifacts.metrics.val_loss!;
  for (let i = 3; i < val.length; i += 40) val[i] = null;
  return request;
}

describe("large bodies with long number arrays", () => {
  it("answers a history with nulls from a body over 1 MiB exactly as from the same body under it", { timeout: 60_000 }, async () => {
    const { small, large } = bothSizes(historyWithGaps());
    const [fromSmall, fromLarge] = [await post(small), await post(large)];
    expect(fromSmall.status).toBe(200);
    expect(fromLarge.status).toBe(200);
    const { agent_results: results, error_messages: errors } = fromLarge.body as unknown as AnalysisResponse;
    expect(errors).toEqual({});
    expect(results.TrainingArtifactsAnalyzer!.analyzed_artifacts[0]).toMatch(/\(metric_arrays, \d+ records, 6 series\)$/);
    expect(fromLarge.body).toEqual(fromSmall.body);
  });

  it("refuses a non-number element with 400 and its field path, whichever the body's size", { timeout: 60_000 }, async () => {
    const request = historyWithGaps();
    request.training_artifacts.metrics.train_loss![4321] = "diverged";
    const { small, large } = bothSizes(request);
    const [fromSmall, fromLarge] = [await post(small), await post(large)];
    expect(fromSmall.status).toBe(400);
    expect(fromLarge.status).toBe(400);
    expect(String(fromLarge.body.detail)).toMatch(/training_artifacts\.metrics\.train_loss\[4321\]: expected a number/);
    expect({ ...fromLarge.body, request_id: null }).toEqual({ ...fromSmall.body, request_id: null });
  });

  it("charts the same curves for a traced analysis, read from the columns after the analysis on the pool", { timeout: 60_000 }, async () => {
    const { small, large } = bothSizes({ ...historyWithGaps(), trace: true });
    const [fromSmall, fromLarge] = [await post(small), await post(large)];
    expect(fromLarge.status).toBe(200);
    const curves = (r: { body: Record<string, unknown> }) => (r.body as unknown as AnalysisResponse).additional_outputs.curves;
    expect(curves(fromLarge)).toBeDefined();
    expect(curves(fromLarge)).toEqual(curves(fromSmall));
    expect(fromLarge.body.agent_results).toEqual(fromSmall.body.agent_results);
  });

  it("runs a queued job from a large body as the analysis of the same body", { timeout: 60_000 }, async () => {
    const { small, large } = bothSizes(historyWithGaps());
    const submitted = await fetch(`${svc.url}/v1/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body: large });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    let job: { state: string; result: unknown };
    do {
      await new Promise((r) => setTimeout(r, 50));
      job = (await (await fetch(`${svc.url}/v1/jobs/${id}`)).json()) as typeof job;
    } while (job.state === "queued" || job.state === "running");
    expect(job.state).toBe("done");
    expect(job.result).toEqual((await post(small)).body);
  });
});

