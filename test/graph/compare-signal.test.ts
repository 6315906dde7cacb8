import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../config/logger.js";
import { buildExperimentGraph } from "../../graph/build-experiment.js";
import { Deadline } from "../../graph/deadline.js";
import { compareRequest } from "../../server/compare-request.js";
import { createServiceRuntime } from "../../server/runtime.js";
import { lrGrid, syntheticRun } from "../support/synthetic-sweep.js";

describe("a comparison and the request's signal", () => {
  it("leaves no abort listener behind per run analysed (the per-run graph runs on a signal of its own)", async () => {
    const logger = createLogger("silent");
    const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent" }, { logger });
    const graph = buildExperimentGraph();
    const left = async (seeds: number) => {
      const deadline = new Deadline();
      const runs = lrGrid([1e-4, 1e-3], Array.from({ length: seeds }, (_, i) => i + 1), 1e-3).map((s) => syntheticRun(s, undefined));
      const response = await compareRequest(runtime, graph, { runs }, { requestId: "t", logger, deadline });
      expect(response.runs).toHaveLength(2 * seeds);
      return getEventListeners(deadline.signal, "abort").length;
    };
    expect(await left(10)).toBe(await left(2));
  });
});
