import { Router } from "express";
import type { Logger } from "../../config/logger.js";
import { buildExperimentGraph } from "../../graph/build-experiment.js";
import { renderComparePage } from "../../report/compare.js";
import type { Admission } from "../admission.js";
import { compareRequest } from "../compare-request.js";
import { parseJsonBody } from "../json-body.js";
import type { ServiceRuntime } from "../runtime.js";
import { analysisIntake, beginAnalysis, untilDeadline } from "./analyse.js";
import { REPORT_CSP } from "./report.js";

/**
 * POST /v1/compare (and /v1/compare/report, as HTML): several runs of one experiment judged against each other (docs/experiments.md). Same intake,
 * admission (one analysis slot for the whole comparison), deadline and error contract as POST /v1/analyse.
 */
export function createCompareRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const graph = buildExperimentGraph();
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  // /v1/compare/report answers the same comparison as a self-contained HTML page (same policy as /v1/report).
  router.post(["/v1/compare", "/v1/compare/report"], ...analysisIntake(runtime, admission), async (req, res, next) => {
    const deadline = beginAnalysis(res, runtime);
    try {
      const body = await parseJsonBody(req.body as Buffer);
      const comparison = compareRequest(runtime, graph, body, { requestId: res.locals.requestId as string, logger: res.locals.logger as Logger, deadline });
      const response = await untilDeadline(comparison, deadline, timeoutMs);
      if (req.path.endsWith("/report")) res.type("text/html; charset=utf-8").set("content-security-policy", REPORT_CSP).send(renderComparePage(runtime.redactor.deep(response)));
      else res.json(response);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
