import { afterEach, describe, expect, it } from "vitest";
import { trainingHistoryRequest } from "../../bench/data/training-history.js";
import type { AnalysisResponse } from "../../graph/response.js";
import { type RunningService, startService } from "../support/http-service.js";
import { loopbackClients, postFrom } from "../support/loopback-clients.js";

/**
 * Liveness while large analyses run (issue 22): JSON parsing and the deterministic analysis of large artifacts
 * happen on the worker pool, so the event loop keeps answering. How fast it answers is the healthz_under_load
 * benchmark's number; here only that it answers, all along, and that the analyses are whole.
 */

let svc: RunningService | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
});

describe("/healthz under large analyses", () => {
  it("answers 200 all along while ten 40 MB training histories are analysed, and every analysis answers 200 in full", { timeout: 300_000 }, async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
    const body = Buffer.from(JSON.stringify(trainingHistoryRequest(760_000)));
    expect(body.length).toBeGreaterThan(40 * 1000 ** 2);
    let answered = 0;
    // Each from its own loopback address: ten clients, not one over its per-client cap.
    const posts = Promise.all(
      loopbackClients(10, 100).map(async (address) => {
        const answer = await postFrom(`${svc!.url}/v1/analyse`, body, address);
        answered++;
        return answer;
      }),
    );
    const probes: Array<{ status: number; analysesDone: number }> = [];
    while (answered < 10) {
      probes.push({ status: (await fetch(`${svc.url}/healthz`)).status, analysesDone: answered });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const answer of await posts) {
      expect(answer.status).toBe(200);
      const training = (JSON.parse(answer.text) as AnalysisResponse).agent_results.TrainingArtifactsAnalyzer!;
      expect(training.error_message).toBeNull();
      // Every point of the 6 metrics × 760 000 steps read.
      expect(training.analyzed_artifacts[0]).toMatch(/\(metric_arrays, 4560000 records, 6 series\)$/);
    }
    expect(new Set(probes.map((p) => p.status))).toEqual(new Set([200]));
    // Loosely: the probes were answered while the analyses ran, not only once they had all ended.
    expect(probes.filter((p) => p.analysesDone < 10).length).toBeGreaterThanOrEqual(10);
  });
});
