import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { z } from "zod";
import { StructuredOutputSettingSchema } from "../llm/structured-mode.js";

/** Raw variables as text: the LLM loader (spec §2.3) applies its own strict rules to them. */
export type RawEnv = Readonly<Record<string, string | undefined>>;

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);

/** Every setting of the service except the LLM ones, validated once at start-up. */
export const ServiceSettingsSchema = z.object({
  PORT: int(8844, 0, 65535),
  /** Listen address: loopback unless said otherwise (HOST=0.0.0.0 in a container, behind its network). */
  HOST: z.string().min(1).default("127.0.0.1"),
  /** The debug page and /v1/graph: "1" on, "0" off; unset, on only while HOST is a loopback address. */
  SERVICE_DEBUG_UI: z.enum(["0", "1"]).optional(),
  SERVICE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Analyzer workers running at once per analysis (spec §8: 3). */
  SERVICE_ANALYZER_WORKERS: int(3, 1, 64),
  /** Per-agent time-out; a slower agent is reported in error_messages and the others go on. */
  SERVICE_AGENT_TIMEOUT_MS: int(120_000, 100, 300_000),
  /** Whole-request time-out (spec §8: at most 300 s), answered 504. */
  SERVICE_REQUEST_TIMEOUT_MS: int(300_000, 100, 300_000),
  /** Analyses in flight (spec §8: 10); the next is refused with 503 at once. */
  SERVICE_MAX_CONCURRENT_ANALYSES: int(10, 1, 1000),
  SERVICE_MAX_BODY_BYTES: int(64 * 1024 * 1024, 1024),
  /** Runs one POST /v1/compare may name (inline or pulled); more is answered 413. */
  SERVICE_MAX_COMPARE_RUNS: int(500, 1, 100_000),
  /** Time to receive a request body, answered 408; unset: see bodyTimeoutMs. */
  SERVICE_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  /** Analysis requests one client may have open at once (bodies being read included), answered 429. */
  SERVICE_MAX_CONCURRENT_PER_CLIENT: int(4, 1, 1000),
  /** Proxies in front of the service whose X-Forwarded-For entries are trusted to name the client (0: none). */
  SERVICE_TRUST_PROXY: int(0, 0, 10),
  /** Comma-separated browser origins allowed to call the API across sites (CORS); empty: none. */
  SERVICE_CORS_ORIGINS: z
    .string()
    .default("")
    .transform((s) => s.split(",").map((o) => o.trim()).filter((o) => o.length > 0)),
  /** How long a SIGTERM waits for in-flight analyses before the process exits. */
  SERVICE_SHUTDOWN_GRACE_MS: int(30_000, 0, 600_000),
  SERVICE_MLFLOW_TRACKING_URI: z.url().optional(),
  SERVICE_MLFLOW_TOKEN: z.string().min(1).optional(),
  SERVICE_MLFLOW_USERNAME: z.string().min(1).optional(),
  SERVICE_MLFLOW_PASSWORD: z.string().min(1).optional(),
  SERVICE_MLFLOW_TIMEOUT_MS: int(30_000, 100, 300_000),
  /** Per-request cap on bytes pulled from the tracking server. */
  SERVICE_MAX_DOWNLOAD_BYTES: int(2 * 1024 ** 3, 1024),
  /** Per-file cap on a pulled file stored in the workspace (a checkpoint); documents are capped by SERVICE_MAX_BODY_BYTES. */
  SERVICE_MAX_DOWNLOAD_FILE_BYTES: int(2 * 1024 ** 3, 1024),
  /** Where request workspaces (pulled artifacts) are created; default: the OS temp dir. */
  SERVICE_WORKSPACE_DIR: z.string().min(1).optional(),
  /** Colon-separated directories a request's checkpoint_path may point into. */
  SERVICE_ARTIFACT_ROOTS: z
    .string()
    .default("")
    .transform((s) => s.split(":").filter((p) => p.length > 0)),
  /** Checkpoints larger than this are scanned header-only. */
  SERVICE_MAX_CHECKPOINT_BYTES: int(16 * 1024 ** 3, 0),
  SERVICE_EMBEDDINGS_MODEL_NAME: z.string().min(1).optional(),
  /**
   * Per-call LLM request time-out and the client's own retries (kept small so retries never multiply). With a
   * model, their product must stay below SERVICE_AGENT_TIMEOUT_MS (graph/budgets.ts): 45 s × 2 < 120 s.
   */
  SERVICE_LLM_TIMEOUT_MS: int(45_000, 100, 300_000),
  SERVICE_LLM_MAX_RETRIES: int(1, 0, 5),
  /** How structured answers are asked for: `auto` negotiates per endpoint, a mode pins it (docs/llm.md). */
  SERVICE_LLM_STRUCTURED_OUTPUT: StructuredOutputSettingSchema.default("auto"),
  /** Redis shared by the replicas (caches, job queue); unset: everything in-process, as a single service. */
  SERVICE_REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: "SERVICE_REDIS_URL must be a redis:// or rediss:// URL" })
    .optional(),
  /** Jobs waiting to run (POST /v1/jobs beyond it: 503 with Retry-After). */
  SERVICE_MAX_QUEUED_JOBS: int(100, 1, 100_000),
  /** Jobs one process runs at once; each also takes one of the SERVICE_MAX_CONCURRENT_ANALYSES slots. */
  SERVICE_JOB_WORKERS: int(2, 1, 100),
  /** How long a finished job (its result or error) can be read before it is gone (404). */
  SERVICE_JOB_RETENTION_MS: int(3_600_000, 1000, 7 * 24 * 3_600_000),
  /** Runs of a job whose process died (with Redis) before it is failed. */
  SERVICE_JOB_ATTEMPTS: int(3, 1, 10),
  /** With Redis: a job whose replica died is taken by another once its lock has gone this long unrenewed. */
  SERVICE_JOB_LOCK_MS: int(30_000, 1000, 600_000),
});
export type ServiceSettings = z.infer<typeof ServiceSettingsSchema>;

/**
 * The body time-out: SERVICE_BODY_TIMEOUT_MS, or else 2 s per MiB of the body limit and at least 10 s, so a
 * client on a slow link can still send a body of the largest size (default 64 MiB: 128 s, i.e. ≥ 0.5 MiB/s).
 */
export function bodyTimeoutMs(settings: Pick<ServiceSettings, "SERVICE_BODY_TIMEOUT_MS" | "SERVICE_MAX_BODY_BYTES">): number {
  return settings.SERVICE_BODY_TIMEOUT_MS ?? Math.max(10_000, Math.ceil((2_000 * settings.SERVICE_MAX_BODY_BYTES) / 1024 ** 2));
}

/** Whether a listen address is reachable from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1" || host === "[::1]" || host.toLowerCase() === "localhost";
}

/**
 * Whether the debug surfaces (GET /debug, GET /v1/graph, the LLM details of /readyz) are served: they describe
 * the service's insides and run analyses from a page, so by default only a service bound to loopback serves them.
 */
export function debugUiEnabled(settings: Pick<ServiceSettings, "HOST" | "SERVICE_DEBUG_UI">): boolean {
  return settings.SERVICE_DEBUG_UI === undefined ? isLoopbackHost(settings.HOST) : settings.SERVICE_DEBUG_UI === "1";
}

/** A configuration problem found at start-up; the message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * The process environment merged over the optional env file named by SERVICE_ENV_FILE (the file loads first,
 * real variables win). The only place that reads `process.env`.
 */
export function readRawEnv(source: NodeJS.ProcessEnv = process.env): RawEnv {
  const file = source.SERVICE_ENV_FILE;
  let fromFile: Record<string, string> = {};
  if (file) {
    try {
      fromFile = parseEnv(readFileSync(file, "utf8")) as Record<string, string>;
    } catch (err) {
      throw new ConfigError(`SERVICE_ENV_FILE=${file} could not be read: ${(err as Error).message}`);
    }
  }
  return Object.freeze({ ...fromFile, ...source });
}

/** Validates the service settings, throwing one message that names every bad variable. */
export function loadServiceSettings(raw: RawEnv): Readonly<ServiceSettings> {
  const parsed = ServiceSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  return Object.freeze(parsed.data);
}
