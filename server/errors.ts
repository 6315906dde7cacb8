import type { ErrorRequestHandler, Request, Response } from "express";
import type { Logger } from "../config/logger.js";
import { oneLine } from "../artifacts/json-values.js";
import { MLFLOW_ERROR_STATUS } from "../artifacts/mlflow/errors.js";
import { RequestDecodeError } from "../artifacts/request.js";
import { CHECKPOINT_PATH_REFUSED } from "../nodes/checkpoint/paths.js";
import { appJsonWriter } from "./json-writer.js";

/** The service's own error codes. */
export const SERVICE_ERROR_CODES = [
  "BAD_REQUEST",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "REQUEST_TIMEOUT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "TOO_MANY_REQUESTS",
  "ANALYSIS_FAILED",
  "OVERLOADED",
  "SHUTTING_DOWN",
  "TIMEOUT",
] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/**
 * Every `code` an error body may carry (docs/api.md): the service's own, the tracking-server ones and the
 * checkpoint-path refusal. A library error with another code (a zlib or file-system one) is never passed on.
 */
export const ERROR_CODES: ReadonlySet<string> = new Set([...SERVICE_ERROR_CODES, ...Object.keys(MLFLOW_ERROR_STATUS), CHECKPOINT_PATH_REFUSED]);

/** The code of an error that names none of ERROR_CODES, by its status. */
const CODE_BY_STATUS: Record<number, ServiceErrorCode> = {
  400: "BAD_REQUEST",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
};

/** Every 400 detail starts with this (spec §4), whichever route or module refused the request. */
export const DECODE_PREFIX = "Error decoding request: ";

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

/**
 * Errors from other modules (MLflow, checkpoint paths) carry their own status and code; so do the HTTP errors of
 * Express and its helpers (`status` or `statusCode`, e.g. a malformed JSON body), whose codes are not ours.
 */
interface StatusCarrier {
  status: number;
  code?: unknown;
  message: string;
  /** Seconds for the Retry-After of a 503 (artifacts/mlflow/errors.ts sets it). */
  retryAfterSeconds?: number;
}
function asStatusCarrier(err: unknown): StatusCarrier | null {
  const e = err as (Partial<StatusCarrier> & { statusCode?: unknown }) | null;
  if (!e || typeof e.message !== "string") return null;
  const status = typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : NaN;
  return status >= 400 && status < 600 ? { ...e, status, message: e.message } : null;
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
    const line = oneLine(detail);
    return { status, body: { detail: status === 400 && !line.startsWith(DECODE_PREFIX) ? DECODE_PREFIX + line : line, code, request_id: requestId }, headers };
  };
  if (err instanceof RequestDecodeError) return body(400, "BAD_REQUEST", err.message);
  if (err instanceof ServiceError) return body(err.status, err.code, err.message, err.headers);
  // A malformed percent-encoding in the URL (Express decodes path parameters).
  if (err instanceof URIError) return body(400, "BAD_REQUEST", `the URL holds a malformed percent-encoding (${err.message})`);
  const carrier = asStatusCarrier(err);
  if (carrier) {
    const code = typeof carrier.code === "string" && ERROR_CODES.has(carrier.code) ? carrier.code : (CODE_BY_STATUS[carrier.status] ?? (carrier.status < 500 ? "BAD_REQUEST" : "ANALYSIS_FAILED"));
    return body(carrier.status, code, carrier.message);
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

/** Whether the request announced a body that was not read to its end. */
function hasUnreadBody(req: Request): boolean {
  const declared = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  return declared && !req.readableEnded;
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
      if (!res.writableEnded) res.end(`event: error\ndata: ${appJsonWriter(res)(body)}\n\n`);
      return;
    }
    // A body nobody read (a 405 or 404 answered at once) is not worth draining: close rather than reuse the socket.
    if (hasUnreadBody(req)) res.set("connection", "close");
    res.status(status).set(headers).json(body);
  };
}
