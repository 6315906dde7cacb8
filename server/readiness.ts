import { trackingEndpoint } from "../artifacts/mlflow/endpoint.js";
import type { ServiceSettings } from "../config/env.js";
import type { LlmConfig } from "../llm/config.js";
import type { RedisLink } from "../redis/link.js";

/** One dependency's state as /readyz reports it; `detail` never names a host, a model or a credential. */
export interface CheckResult {
  name: "llm" | "mlflow" | "redis";
  ok: boolean;
  detail: string;
}

/** A probe waits this long: /readyz must answer fast even when a dependency hangs. */
const PROBE_TIMEOUT_MS = 2_000;
/** A result is reused this long, so a load balancer polling every second costs a dependency one call per 15 s. */
const PROBE_TTL_MS = 15_000;

type Probe = () => Promise<CheckResult>;

/** Answers a probe from its last result while fresh; concurrent callers share the call in flight. */
function cached(probe: Probe, now: () => number): Probe {
  let last: { at: number; result: Promise<CheckResult> } | null = null;
  return () => {
    if (!last || now() - last.at >= PROBE_TTL_MS) last = { at: now(), result: probe() };
    return last.result;
  };
}

/** What a probe's HTTP answer (or failure) means for the dependency. */
async function httpProbe(name: CheckResult["name"], url: string, headers: Record<string, string>, fetchImpl: typeof fetch): Promise<CheckResult> {
  try {
    const res = await fetchImpl(url, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403) return { name, ok: false, detail: `refused the configured credentials (${res.status})` };
    if (res.status >= 500) return { name, ok: false, detail: `answered ${res.status}` };
    return { name, ok: true, detail: "reachable" };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const why = e.name === "TimeoutError" ? `no answer within ${PROBE_TIMEOUT_MS} ms` : (e.cause?.code ?? e.name);
    return { name, ok: false, detail: `unreachable (${why})` };
  }
}

export interface ReadinessDeps {
  settings: Readonly<ServiceSettings>;
  llmConfig: LlmConfig | null;
  /** The shared caches' Redis (SERVICE_REDIS_URL): its connection's own state, no probe needed. */
  redis?: Pick<RedisLink, "available"> | null;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The checks of /readyz over what the service depends on: the LLM endpoint (its model list, the cheapest call
 * an OpenAI-compatible server answers) when a base URL is configured, and the MLflow tracking server (`/version`)
 * when one is, and Redis (its connection's state) when SERVICE_REDIS_URL is set. Each is bounded in time and
 * cached; a failing one makes the service `degraded`, not unready: it still answers, deterministically or from
 * inline artifacts (and with Redis gone, from this process's caches).
 */
export function createReadinessChecks({ settings, llmConfig, redis, fetch: fetchImpl = fetch, now = () => performance.now() }: ReadinessDeps): () => Promise<CheckResult[]> {
  const probes: Probe[] = [];
  if (redis) {
    probes.push(async () =>
      redis.available
        ? { name: "redis", ok: true, detail: "connected: caches and jobs shared by the replicas" }
        : { name: "redis", ok: false, detail: "unavailable: caches in this process's memory, jobs can be neither queued nor read" },
    );
  }
  if (llmConfig?.baseUrl) {
    const url = `${llmConfig.baseUrl.replace(/\/+$/, "")}/models`;
    const headers: Record<string, string> = llmConfig.apiKey ? { authorization: `Bearer ${llmConfig.apiKey}` } : {};
    probes.push(cached(() => httpProbe("llm", url, headers, fetchImpl), now));
  }
  if (settings.SERVICE_MLFLOW_TRACKING_URI) {
    const endpoint = trackingEndpoint(settings);
    const headers: Record<string, string> = endpoint.authorization ? { authorization: endpoint.authorization } : {};
    probes.push(cached(() => httpProbe("mlflow", `${endpoint.base}/version`, headers, fetchImpl), now));
  }
  return () => Promise.all(probes.map((probe) => probe()));
}
