import { Router } from "express";
import type { Logger } from "../../config/logger.js";
import { renderReportPage } from "../../report/render.js";
import type { Admission } from "../admission.js";
import { analyzeRequest } from "../analyze-request.js";
import type { ServiceRuntime } from "../runtime.js";
import { parseJsonBody } from "../json-body.js";
import { analysisIntake, beginAnalysis, untilDeadline } from "./analyse.js";

/**
 * The report page may hold text from the request (dataset and metric names, log lines): it is escaped when
 * rendered, and this policy forbids scripts and every fetch, so even a rendering bug could not run or leak.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** POST /v1/report: the same body and limits as /v1/analyse, answered with a self-contained HTML report. */
export function createReportRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  router.post("/v1/report", ...analysisIntake(runtime, admission), async (req, res, next) => {
    const deadline = beginAnalysis(res, runtime);
    try {
      const analysis = analyzeRequest(runtime, await parseJsonBody(req.body as Buffer), {
        requestId: res.locals.requestId as string,
        logger: res.locals.logger as Logger,
        deadline,
        debugOutputs: true,
      });
      const response = await untilDeadline(analysis, deadline, timeoutMs);
      res.type("text/html; charset=utf-8").set("content-security-policy", REPORT_CSP).send(renderReportPage(runtime.redactor.deep(response)));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
