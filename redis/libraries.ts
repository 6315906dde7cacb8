import { createRequire } from "node:module";
import type * as BullMQ from "bullmq";
import type * as IORedis from "ioredis";

// Both are CommonJS, required on first use: the constructors that need them stay synchronous, and a service
// without SERVICE_REDIS_URL never loads them (about 280 modules, a fifth of the start-up time when imported).
const requireHere = createRequire(import.meta.url);

/** The Redis client library (ioredis). */
export const ioredis = (): typeof IORedis => requireHere("ioredis");

/** The job queue library (BullMQ). */
export const bullmq = (): typeof BullMQ => requireHere("bullmq");
