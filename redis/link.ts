import type { Redis } from "ioredis";
import type { Logger } from "../config/logger.js";
import { ioredis } from "./libraries.js";

/** A Redis command slower than this counts as Redis being unavailable: a request never waits on it longer. */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * The shared caches' connection to Redis and whether it can be used now. Commands fail at once while it is
 * down (no offline queue), so callers fall back instead of waiting; ioredis keeps reconnecting in the
 * background and `available` comes back with it.
 */
export interface RedisLink {
  readonly client: Redis;
  readonly available: boolean;
  /** Why Redis is unavailable (a one-line message), null while it is available. */
  readonly problem: string | null;
  /** A command failed: Redis counts as unavailable until the connection is ready again. */
  failed(err: unknown): void;
  close(): Promise<void>;
}

/** Where Redis is, without credentials, for logs and /readyz. */
export function redisAddress(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "6379"}${u.pathname.length > 1 ? u.pathname : ""}`;
}

/** Connects to SERVICE_REDIS_URL; unavailable until the first connection is ready, warned once per outage. */
export function connectRedis(url: string, logger: Logger): RedisLink {
  const where = redisAddress(url);
  let problem: string | null = "connecting";
  let warned = false;
  const down = (message: string) => {
    problem = message;
    if (warned) return;
    warned = true;
    logger.warn("Redis unavailable: the caches use this process's memory until it is back", { redis: where, problem: message });
  };
  const { Redis } = ioredis();
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    // Keep trying for as long as the process lives, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  client.on("ready", () => {
    if (warned) logger.info("Redis available again: the caches are shared again", { redis: where });
    problem = null;
    warned = false;
  });
  client.on("error", (err: Error) => down(err.message));
  client.on("close", () => {
    if (problem === null) down("connection closed");
  });
  return {
    client,
    get available() {
      return problem === null && client.status === "ready";
    },
    get problem() {
      return problem;
    },
    failed: (err) => down(err instanceof Error ? err.message : String(err)),
    close: async () => {
      client.disconnect();
    },
  };
}
