import { Router } from "express";
import type { Logger } from "../../config/logger.js";
import { buildExperimentGraph } from "../../graph/build-experiment.js";
import type { Admission } from "../admission.js";
import { compareRequest } from "../compare-request.js";
import { parseJsonBody } from "../json-body.js";
import type { ServiceRuntime } from "../runtime.js";
import { analysisIntake, beginAnalysis, untilDeadline } from "./analyse.js";

/**
 * POST /v1/compare: several runs of one experiment judged against each other (docs/experiments.md). Same intake,
 * admission (one analysis slot for the whole comparison), deadline and error contract as POST /v1/analyse.
 */
export function createCompareRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const graph = buildExperimentGraph();
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  router.post("/v1/compare", ...analysisIntake(runtime, admission), async (req, res, next) => {
    const deadline = beginAnalysis(res, runtime);
    try {
      const body = await parseJsonBody(req.body as Buffer);
      const comparison = compareRequest(runtime, graph, body, { requestId: res.locals.requestId as string, logger: res.locals.logger as Logger, deadline });
      res.json(await untilDeadline(comparison, deadline, timeoutMs));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
