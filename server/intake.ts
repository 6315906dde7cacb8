import type { Server } from "node:http";
import type { RequestHandler } from "express";
import { bodyTimeoutMs, type ServiceSettings } from "../config/env.js";
import type { Logger } from "../config/logger.js";
import { ServiceError } from "./errors.js";
import { requestDeadline } from "./request-deadline.js";

/**
 * How a request body gets in: the content type is checked, then the body is read whole, bounded in size and in
 * time, before any analysis slot is taken (server/admission.ts), so a slow sender holds a socket, not a slot.
 */

/** A client gets this long to send its headers (Node's default is 60 s; slow-header senders are not served). */
const HEADERS_TIMEOUT_MS = 10_000;
/** An idle keep-alive connection is closed after this (Node's default; a proxy in front should idle out sooner). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * The connection time-outs of the HTTP server. Node's own request time-out is kept only as a backstop behind the
 * body time-out below, which answers 408 with the error body.
 */
export function applyConnectionTimeouts(server: Server, settings: Pick<ServiceSettings, "SERVICE_BODY_TIMEOUT_MS" | "SERVICE_MAX_BODY_BYTES">): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = HEADERS_TIMEOUT_MS + bodyTimeoutMs(settings) + 5_000;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
}

/** Whether a Content-Type header names JSON in UTF-8 (or with no charset: JSON is UTF-8, RFC 8259 §8.1). */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.every((param) => !param.startsWith("charset=") || /^charset="?utf-8"?$/.test(param));
}

/**
 * Work routes take JSON only. A browser sends a cross-site `text/plain` or form POST without asking first, but
 * never an `application/json` one without a CORS preflight (server/cors.ts), so this keeps any web page a user
 * opens from running analyses on a service it can reach.
 */
export const requireJson: RequestHandler = (req, res, next) => {
  const type = req.get("content-type");
  const encoding = req.get("content-encoding");
  if (!isJsonContentType(type)) {
    res.set("connection", "close");
    return next(
      new ServiceError("UNSUPPORTED_MEDIA_TYPE", 415, `expected Content-Type: application/json (UTF-8), received ${type ? JSON.stringify(type) : "none"}; with curl, add -H 'content-type: application/json'`),
    );
  }
  if (encoding && encoding.toLowerCase() !== "identity") {
    res.set("connection", "close");
    return next(new ServiceError("UNSUPPORTED_MEDIA_TYPE", 415, `compressed bodies are not accepted (Content-Encoding: ${encoding}); send the JSON as is`));
  }
  next();
};

/**
 * Reads the whole body into `req.body` (a Buffer): more than `limit` bytes is 413 (at once when Content-Length
 * says so), a body not complete within `timeoutMs` of the headers is 408. Either answer closes the connection,
 * since the rest of the body is never read.
 */
export function readBody(limit: number, timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.get("content-length") ?? Number.NaN);
    const tooLarge = () => new ServiceError("PAYLOAD_TOO_LARGE", 413, `request body exceeds the limit of ${limit} bytes (SERVICE_MAX_BODY_BYTES)`);
    if (declared > limit) {
      res.set("connection", "close");
      return next(tooLarge());
    }
    // A large body with a declared length is copied into one buffer as it arrives, so no 40 MB copy (and its
    // page faults) blocks the event loop at the end. The buffer is allocated only once the first MiB has come,
    // so a slow sender announcing a big body costs no memory. Other bodies are joined at the end. The buffer is
    // shared memory, so every worker of the pool can decode a part of it in place (server/json-body.ts).
    let whole: Buffer | null = null;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (err: ServiceError | null) => {
      if (settled) return;
      settled = true;
      cancelTimer();
      req.off("data", onData).off("end", onEnd).off("close", onClose);
      if (!err) {
        req.body = whole ? whole.subarray(0, received) : Buffer.concat(chunks, received);
        return next();
      }
      chunks.length = 0;
      res.set("connection", "close");
      req.resume(); // discard what still arrives until the connection closes
      next(err);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return settle(tooLarge());
      if (whole) chunk.copy(whole, received - chunk.length);
      else chunks.push(chunk);
      if (!whole && declared >= PREALLOCATE_AFTER_BYTES && received >= PREALLOCATE_AFTER_BYTES) {
        whole = Buffer.from(new SharedArrayBuffer(declared));
        let offset = 0;
        for (const part of chunks.splice(0)) offset += part.copy(whole, offset);
      }
    };
    const onEnd = () => settle(null);
    const onClose = () => {
      if (settled) return;
      settled = true;
      cancelTimer();
      (res.locals.logger as Logger).info("client closed the connection before its body was complete", { received });
    };
    // A timer of the request's deadline, which clears it with everything else when the connection closes.
    const cancelTimer = requestDeadline(res).timer(timeoutMs, () =>
      settle(new ServiceError("REQUEST_TIMEOUT", 408, `the request body was not complete within ${timeoutMs} ms (SERVICE_BODY_TIMEOUT_MS; ${received} bytes received)`)),
    );
    req.on("data", onData).on("end", onEnd).on("close", onClose);
  };
}

/** Bytes of a body received before its whole declared length is allocated (see readBody). */
const PREALLOCATE_AFTER_BYTES = 1024 * 1024;

/** The checks and the body read every JSON work route starts with. */
export function jsonBodyIntake(settings: Pick<ServiceSettings, "SERVICE_BODY_TIMEOUT_MS" | "SERVICE_MAX_BODY_BYTES">): RequestHandler[] {
  return [requireJson, readBody(settings.SERVICE_MAX_BODY_BYTES, bodyTimeoutMs(settings))];
}
