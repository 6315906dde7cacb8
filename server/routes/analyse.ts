import express, { Router, type RequestHandler } from "express";
import type { Logger } from "../../config/logger.js";
import { type Deadline, DeadlineExceeded, untilAborted } from "../../graph/deadline.js";
import type { Admission } from "../admission.js";
import { analyzeRequest } from "../analyze-request.js";
import { ServiceError } from "../errors.js";
import { jsonBodyIntake } from "../intake.js";
import { parseJsonBody } from "../json-body.js";
import { REQUEST_BUDGET, requestDeadline } from "../request-deadline.js";
import type { ServiceRuntime } from "../runtime.js";
import { createEventStream, wantsEventStream } from "../sse.js";

/**
 * What every analysis route runs before its handler: admission on arrival (drain, per-client cap), the JSON
 * content type, the whole body read within its limits, and only then an analysis slot.
 */
export function analysisIntake(runtime: ServiceRuntime, admission: Admission): RequestHandler[] {
  return [admission.arrive, ...jsonBodyIntake(runtime.settings), admission.slot];
}

/** Starts the request's time-out (SERVICE_REQUEST_TIMEOUT_MS) on its deadline, once the body is in and a slot taken. */
export function beginAnalysis(res: express.Response, runtime: ServiceRuntime): Deadline {
  return requestDeadline(res).begin(runtime.settings.SERVICE_REQUEST_TIMEOUT_MS, REQUEST_BUDGET);
}

/**
 * Waits for the analysis no longer than the request's deadline allows, and maps its own time-out to 504; other
 * errors pass through. The analysis stops through the same signal; its workspace is removed when it has.
 */
export async function untilDeadline<T>(work: Promise<T>, deadline: Deadline, timeoutMs: number): Promise<T> {
  try {
    return await untilAborted(work, deadline.signal);
  } catch (err) {
    if (deadline.signal.aborted && deadline.signal.reason instanceof DeadlineExceeded) {
      throw new ServiceError("TIMEOUT", 504, `the analysis did not finish within ${timeoutMs} ms (SERVICE_REQUEST_TIMEOUT_MS); it was stopped`);
    }
    throw err;
  }
}

/** POST /v1/analyse and its alias /v1/analyze: JSON, or server-sent events with `Accept: text/event-stream`. */
export function createAnalyseRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  router.post(["/v1/analyse", "/v1/analyze"], ...analysisIntake(runtime, admission), async (req, res, next) => {
    const deadline = beginAnalysis(res, runtime);
    const stream = wantsEventStream(req) ? createEventStream(res) : null;
    try {
      const body = await parseJsonBody(req.body as Buffer);
      const analysis = analyzeRequest(runtime, body, {
        requestId: res.locals.requestId as string,
        logger: res.locals.logger as Logger,
        deadline,
        onEvent: stream ? ({ type, ...data }) => stream.send(type, data) : undefined,
      });
      const response = await untilDeadline(analysis, deadline, timeoutMs);
      if (stream) stream.end("result", response);
      else res.json(response);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
