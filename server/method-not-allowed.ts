import type { Express, RequestHandler } from "express";
import { ServiceError } from "./errors.js";

/** The parts of Express's router layers read here (router v2: each layer matches a path; a route lists methods). */
interface Layer {
  route?: { methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  match(path: string): boolean;
}

/** The methods some route of `stack` (and of the routers mounted in it) answers for `path`. */
function routeMethods(stack: readonly Layer[], path: string, into: Set<string>): Set<string> {
  for (const layer of stack) {
    if (layer.route) {
      if (layer.match(path)) for (const method of Object.keys(layer.route.methods)) if (method !== "_all") into.add(method.toUpperCase());
    } else if (layer.handle?.stack && layer.match(path)) {
      routeMethods(layer.handle.stack, path, into);
    }
  }
  return into;
}

/**
 * Placed after every route: a request whose path exists under other methods is a 405 with `Allow` listing them
 * (RFC 9110 §15.5.6), read from the app's own routes so the list cannot drift from them; other requests go on to
 * the 404.
 */
export function methodNotAllowed(app: Express): RequestHandler {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return (req, _res, next) => {
    const methods = routeMethods(stack, req.path, new Set());
    if (methods.size === 0 || methods.has(req.method)) return next();
    if (methods.has("GET")) methods.add("HEAD");
    const allow = [...methods].sort().join(", ");
    next(new ServiceError("METHOD_NOT_ALLOWED", 405, `${req.method} is not allowed on ${req.path}; it answers ${allow}`, { Allow: allow }));
  };
}
