import type { RequestHandler } from "express";
import { ServiceError } from "./errors.js";

/**
 * Admission control for analyses (spec §8: 10 at once): a request over the limit, or one arriving while the
 * process drains for shutdown, is refused with 503 at once, before its body is read.
 */
export interface Admission {
  middleware: RequestHandler;
  readonly inFlight: number;
  readonly draining: boolean;
  /** Refuse new analyses and resolve when the in-flight ones have finished (or after `graceMs`). */
  drain(graceMs: number): Promise<boolean>;
}

export function createAdmission(maxInFlight: number): Admission {
  let inFlight = 0;
  let draining = false;
  let idle: Array<() => void> = [];
  const release = () => {
    inFlight--;
    if (inFlight === 0) {
      for (const resolve of idle) resolve();
      idle = [];
    }
  };
  return {
    middleware: (_req, res, next) => {
      if (draining) return next(new ServiceError("SHUTTING_DOWN", 503, "the service is shutting down; retry on another instance", { "Retry-After": "5" }));
      if (inFlight >= maxInFlight) {
        return next(new ServiceError("OVERLOADED", 503, `the service is analyzing ${inFlight} requests, its limit (SERVICE_MAX_CONCURRENT_ANALYSES); retry shortly`, { "Retry-After": "1" }));
      }
      inFlight++;
      let released = false;
      const once = () => {
        if (!released) {
          released = true;
          release();
        }
      };
      res.on("finish", once);
      res.on("close", once);
      next();
    },
    get inFlight() {
      return inFlight;
    },
    get draining() {
      return draining;
    },
    drain(graceMs) {
      draining = true;
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), graceMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
