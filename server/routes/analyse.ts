import express, { Router, type RequestHandler } from "express";
import type { Logger } from "../../config/logger.js";
import type { Admission } from "../admission.js";
import { analyzeRequest } from "../analyze-request.js";
import { ServiceError } from "../errors.js";
import { jsonBodyIntake } from "../intake.js";
import { parseJsonBody } from "../json-body.js";
import type { ServiceRuntime } from "../runtime.js";
import { createEventStream, wantsEventStream } from "../sse.js";

/**
 * What every analysis route runs before its handler: admission on arrival (drain, per-client cap), the JSON
 * content type, the whole body read within its limits, and only then an analysis slot.
 */
export function analysisIntake(runtime: ServiceRuntime, admission: Admission): RequestHandler[] {
  return [admission.arrive, ...jsonBodyIntake(runtime.settings), admission.slot];
}

/** An AbortSignal that fires when the client goes away or the request time-out passes. */
export function requestSignal(req: express.Request, res: express.Response, timeoutMs: number): AbortSignal {
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort(new Error("client disconnected"));
  });
  return AbortSignal.any([gone.signal, AbortSignal.timeout(timeoutMs)]);
}

/** Maps an abort by the request time-out to 504; other errors pass through. */
export function timeoutAware(err: unknown, signal: AbortSignal, timeoutMs: number): unknown {
  if (signal.aborted && (signal.reason as Error | undefined)?.name === "TimeoutError") {
    return new ServiceError("TIMEOUT", 504, `the analysis did not finish within ${timeoutMs} ms (SERVICE_REQUEST_TIMEOUT_MS); it was stopped`);
  }
  return err;
}

/** POST /v1/analyse and its alias /v1/analyze: JSON, or server-sent events with `Accept: text/event-stream`. */
export function createAnalyseRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const timeoutMs = runtime.settings.SERVICE_REQUEST_TIMEOUT_MS;
  router.post(["/v1/analyse", "/v1/analyze"], ...analysisIntake(runtime, admission), async (req, res, next) => {
    const signal = requestSignal(req, res, timeoutMs);
    const stream = wantsEventStream(req) ? createEventStream(res) : null;
    try {
      const body = await parseJsonBody(req.body as Buffer);
      const response = await analyzeRequest(runtime, body, {
        requestId: res.locals.requestId as string,
        logger: res.locals.logger as Logger,
        signal,
        onEvent: stream ? ({ type, ...data }) => stream.send(type, data) : undefined,
      });
      if (stream) stream.end("result", response);
      else res.json(response);
    } catch (err) {
      next(timeoutAware(err, signal, timeoutMs));
    }
  });
  return router;
}
