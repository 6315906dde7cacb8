import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "../config/logger.js";
import { RequestDecodeError } from "../artifacts/request.js";

/** The closed list of error codes the HTTP layer answers with. */
export type ServiceErrorCode =
  | "BAD_REQUEST"
  | "FORBIDDEN"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "REQUEST_TIMEOUT"
  | "TOO_MANY_REQUESTS"
  | "NOT_FOUND"
  | "ANALYSIS_FAILED"
  | "OVERLOADED"
  | "SHUTTING_DOWN"
  | "TIMEOUT";

/** An error the service raises on purpose, with the status it maps to. */
export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    readonly code: ServiceErrorCode,
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Errors from other modules (MLflow, checkpoint paths) carry their own status and code; this reads them. */
interface StatusCarrier {
  status: number;
  code: string;
  message: string;
  /** Seconds for the Retry-After of a 503 (artifacts/mlflow/errors.ts sets it). */
  retryAfterSeconds?: number;
}
function isStatusCarrier(err: unknown): err is StatusCarrier {
  const e = err as Partial<StatusCarrier> | null;
  return !!e && typeof e.status === "number" && e.status >= 400 && e.status < 600 && typeof e.code === "string" && typeof e.message === "string";
}

export interface HttpErrorBody {
  detail: string;
  code: string;
  request_id: string;
}

/** Retry-After of a 503 whose cause names no better figure: a refusal under load clears within seconds. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/**
 * The one mapping from errors to HTTP statuses and JSON bodies (every error body has `detail`). Every 503 carries
 * Retry-After, so clients and proxies back off instead of retrying at once.
 */
export function toHttpError(err: unknown, requestId: string): { status: number; body: HttpErrorBody; headers: Record<string, string> } {
  const body = (status: number, code: string, detail: string, given: Record<string, string> = {}) => {
    const headers = { ...given };
    if (status === 503 && !Object.keys(headers).some((h) => h.toLowerCase() === "retry-after")) {
      headers["Retry-After"] = String((err as Partial<StatusCarrier> | null)?.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
    }
    return { status, body: { detail, code, request_id: requestId }, headers };
  };
  if (err instanceof RequestDecodeError) return body(400, "BAD_REQUEST", `Error decoding request: ${err.message}`);
  if (err instanceof ServiceError) return body(err.status, err.code, err.message, err.headers);
  if (isStatusCarrier(err)) {
    const detail = err.status === 400 ? `Error decoding request: ${err.message}` : err.message;
    return body(err.status, err.code, detail);
  }
  // Spec §4 rule 2: a 500 carries the error's trace text; we give its name and message, not the stack.
  const e = err instanceof Error ? err : new Error(String(err));
  return body(500, "ANALYSIS_FAILED", `Analysis failed: ${e.name}: ${e.message}`);
}

/**
 * Whether the client closed its connection before the answer was complete. What the request's work throws then is
 * the consequence of its cancellation (server/app.ts logs the disconnect), not a failure of the service.
 */
export function clientGone(res: Response): boolean {
  return !res.writableFinished && (res.destroyed || res.req.socket.destroyed);
}

/**
 * Terminal error middleware: known errors render themselves, anything else is logged and answered 500. Refusals
 * under back-pressure (503) are expected in normal operation and log at warn.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (clientGone(res)) return;
    const requestId = String(res.locals.requestId ?? "unknown");
    const { status, body, headers } = toHttpError(err, requestId);
    const log = (res.locals.logger as Logger | undefined) ?? logger;
    if (status === 503) log.warn("request refused", { status, code: body.code, detail: body.detail });
    else if (status >= 500) log.error("request failed", { status, code: body.code, err });
    else log.info("request rejected", { status, code: body.code, detail: body.detail });
    if (res.headersSent) {
      // A stream already started: report in-band (SSE clients read an `error` event) and end.
      const replacer = res.app.get("json replacer") as ((key: string, value: unknown) => unknown) | undefined;
      if (!res.writableEnded) res.end(`event: error\ndata: ${JSON.stringify(body, replacer)}\n\n`);
      return;
    }
    res.status(status).set(headers).json(body);
  };
}
