import type { RequestHandler } from "express";
import { ServiceError } from "./errors.js";

/**
 * Cross-origin calls from browsers, for the origins in SERVICE_CORS_ORIGINS only. A preflight from any other
 * origin is refused (403), so a web page elsewhere can never send the JSON the work routes require
 * (server/intake.ts). Requests without an Origin (curl, the client, servers) are not concerned.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.get("origin");
    if (!origin) return next();
    res.vary("Origin");
    const listed = allowed.has(origin);
    if (req.method === "OPTIONS" && req.get("access-control-request-method")) {
      if (!listed) return next(new ServiceError("FORBIDDEN", 403, `cross-origin calls from ${origin} are not allowed; list the origin in SERVICE_CORS_ORIGINS`));
      res
        .set({
          "access-control-allow-origin": origin,
          "access-control-allow-methods": "GET, POST",
          "access-control-allow-headers": "content-type, accept, x-request-id",
          "access-control-max-age": "600",
        })
        .status(204)
        .end();
      return;
    }
    if (listed) res.set({ "access-control-allow-origin": origin, "access-control-expose-headers": "x-request-id, retry-after" });
    next();
  };
}
