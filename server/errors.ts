import type { ErrorRequestHandler } from "express";
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

/** The one mapping from errors to HTTP statuses and JSON bodies (every error body has `detail`). */
export function toHttpError(err: unknown, requestId: string): { status: number; body: HttpErrorBody; headers: Record<string, string> } {
  const body = (status: number, code: string, detail: string, headers: Record<string, string> = {}) => ({
    status,
    body: { detail, code, request_id: requestId },
    headers,
  });
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

/** Terminal error middleware: known errors render themselves, anything else is logged and answered 500. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = String(res.locals.requestId ?? "unknown");
    const { status, body, headers } = toHttpError(err, requestId);
    const log = (res.locals.logger as Logger | undefined) ?? logger;
    if (status >= 500) log.error("request failed", { status, code: body.code, err });
    else log.info("request rejected", { status, code: body.code, detail: body.detail });
    if (res.headersSent) {
      // A stream already started: report in-band (SSE clients read an `error` event) and end.
      if (!res.writableEnded) res.end(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
      return;
    }
    res.status(status).set(headers).json(body);
  };
}
