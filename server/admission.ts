import type { RequestHandler, Response } from "express";
import { clientAddress } from "./client-address.js";
import { ServiceError } from "./errors.js";

/**
 * Admission control for work requests, in two steps. `arrive` runs first: while the process drains for shutdown
 * a request is refused (503), and a client with SERVICE_MAX_CONCURRENT_PER_CLIENT requests already open is
 * refused (429), counted from the moment a request arrives, so one client cannot hold every body read either.
 * `slot` runs once the body is read (server/intake.ts): it takes one of the SERVICE_MAX_CONCURRENT_ANALYSES
 * analysis slots (spec §8: 10) or refuses at once with 503, so a slow sender never holds a slot.
 */
export interface Admission {
  arrive: RequestHandler;
  slot: RequestHandler;
  /** Analyses holding a slot. */
  readonly inFlight: number;
  /** Work requests arrived and not yet answered: bodies being read and analyses running. */
  readonly open: number;
  readonly draining: boolean;
  /** An analysis slot for work that is not a request (a job), or null when all are taken; call the result to free it. */
  take(): (() => void) | null;
  /** Refuse new requests and resolve when the open ones have been answered (true) or after `graceMs` (false). */
  drain(graceMs: number): Promise<boolean>;
}

export interface AdmissionLimits {
  maxInFlight: number;
  maxPerClient: number;
  /** Proxies whose X-Forwarded-For entries name the client (SERVICE_TRUST_PROXY). */
  trustedProxies: number;
}

/** Retry-After while draining for shutdown: a client retries soon, and reaches another instance or the restarted one. */
export const DRAINING_RETRY_AFTER = "5";

/** Runs `release` once, when the response has been sent or its connection has closed, whichever comes first. */
function onEnd(res: Response, release: () => void): void {
  let released = false;
  const once = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  res.on("finish", once);
  res.on("close", once);
}

export function createAdmission(limits: AdmissionLimits): Admission {
  let inFlight = 0;
  let open = 0;
  let draining = false;
  const perClient = new Map<string, number>();
  let idle: Array<() => void> = [];
  const closeOne = (client: string) => {
    open--;
    const left = (perClient.get(client) ?? 1) - 1;
    if (left === 0) perClient.delete(client);
    else perClient.set(client, left);
    if (open === 0) {
      for (const resolve of idle) resolve();
      idle = [];
    }
  };
  return {
    arrive: (req, res, next) => {
      if (draining) return next(new ServiceError("SHUTTING_DOWN", 503, "the service is shutting down; retry on another instance", { "Retry-After": DRAINING_RETRY_AFTER }));
      const client = clientAddress(req, limits.trustedProxies);
      const mine = perClient.get(client) ?? 0;
      if (mine >= limits.maxPerClient) {
        res.set("connection", "close");
        return next(
          new ServiceError("TOO_MANY_REQUESTS", 429, `this client (${client}) already has ${mine} requests open, its limit (SERVICE_MAX_CONCURRENT_PER_CLIENT); retry when one has been answered`, {
            "Retry-After": "1",
          }),
        );
      }
      perClient.set(client, mine + 1);
      open++;
      onEnd(res, () => closeOne(client));
      next();
    },
    slot: (_req, res, next) => {
      if (inFlight >= limits.maxInFlight) {
        return next(new ServiceError("OVERLOADED", 503, `the service is analyzing ${inFlight} requests, its limit (SERVICE_MAX_CONCURRENT_ANALYSES); retry shortly`, { "Retry-After": "1" }));
      }
      inFlight++;
      onEnd(res, () => inFlight--);
      next();
    },
    take() {
      if (inFlight >= limits.maxInFlight) return null;
      inFlight++;
      let released = false;
      return () => {
        if (!released) inFlight--;
        released = true;
      };
    },
    get inFlight() {
      return inFlight;
    },
    get open() {
      return open;
    },
    get draining() {
      return draining;
    },
    drain(graceMs) {
      draining = true;
      if (open === 0) return Promise.resolve(true);
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
