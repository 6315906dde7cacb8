import { loadServiceSettings, type RawEnv, type ServiceSettings } from "../config/env.js";
import { createLogger, type Logger } from "../config/logger.js";
import { checkLlmBudget } from "../graph/budgets.js";
import { type AnalysisGraph, buildAnalysisGraph } from "../graph/build.js";
import { useLeanRunContext } from "../graph/lean-run-context.js";
import { createKnowledgeBase } from "../knowledge/create.js";
import type { KnowledgeService } from "../knowledge/knowledge-base.js";
import type { KnowledgePort } from "../knowledge/port.js";
import { describeLlmConfig, type LlmConfig, loadLlmConfig } from "../llm/config.js";
import { LruLlmCache } from "../llm/cache.js";
import { createLlmPort } from "../llm/openai-port.js";
import type { LlmPort } from "../llm/port.js";
import type { RedisLink } from "../redis/link.js";
import { createMetrics, type Metrics } from "./metrics.js";
import { configuredSecrets, createRedactor, type Redactor, redactingLogger } from "./redaction.js";
import { createSharedCaches } from "./shared-caches.js";

/** Everything built once at start-up and shared by all requests. */
export interface ServiceRuntime {
  settings: Readonly<ServiceSettings>;
  llmConfig: LlmConfig | null;
  /** Every log line goes through the redactor; responses through the app's JSON replacer (server/app.ts). */
  logger: Logger;
  /** Removes the configured secrets (LLM key, MLflow token/password) from text the service passes on. */
  redactor: Redactor;
  /** What the graph cites with (the knowledge base unless a test overrides it). */
  knowledge: KnowledgePort;
  /** The knowledge base itself: GET /v1/knowledge and the cache counters of /metrics. */
  knowledgeBase: KnowledgeService;
  llm: LlmPort | null;
  /** The LLM response cache, for the counters of /metrics; null without a model or with the cache off. */
  llmCache: LruLlmCache | null;
  /** The Redis the caches share (SERVICE_REDIS_URL), for /readyz; null when everything is in-process. */
  redis: RedisLink | null;
  graph: AnalysisGraph;
  /** The Prometheus registry of GET /metrics: the app samples into it, every analysis times its nodes in it. */
  metrics: Metrics;
}

export interface RuntimeOverrides {
  logger?: Logger;
  knowledge?: KnowledgePort;
  llm?: LlmPort | null;
}

/** Builds the runtime from the environment: settings, LLM configuration (spec §2.3), graph. */
export function createServiceRuntime(raw: RawEnv, overrides: RuntimeOverrides = {}): ServiceRuntime {
  const settings = loadServiceSettings(raw);
  const { config: llmConfig, warnings } = loadLlmConfig(raw);
  const redactor = createRedactor(configuredSecrets(settings, llmConfig));
  const logger = redactingLogger(overrides.logger ?? createLogger(settings.SERVICE_LOG_LEVEL), redactor);
  for (const warning of warnings) logger.warn(warning);
  if (llmConfig) checkLlmBudget(settings);
  // No LangSmith RunTree per runnable unless LangSmith traces (its own variables put its tracer in the callbacks).
  useLeanRunContext();
  const shared = createSharedCaches(settings.SERVICE_REDIS_URL, logger);
  const knowledgeBase = createKnowledgeBase({ settings, llmConfig, logger, ...(shared.knowledge && { cache: { store: shared.knowledge } }) });
  logger.info("configuration loaded", { llm: describeLlmConfig(llmConfig), workers: settings.SERVICE_ANALYZER_WORKERS });
  const port = overrides.llm !== undefined ? null : createLlmPort(llmConfig, {
    timeoutMs: settings.SERVICE_LLM_TIMEOUT_MS,
    maxRetries: settings.SERVICE_LLM_MAX_RETRIES,
    structuredOutput: settings.SERVICE_LLM_STRUCTURED_OUTPUT,
    logger,
    ...(shared.llm && { cache: new LruLlmCache({ store: shared.llm }) }),
  });
  return {
    settings,
    llmConfig,
    logger,
    redactor,
    knowledge: overrides.knowledge ?? knowledgeBase,
    knowledgeBase,
    llm: overrides.llm !== undefined ? overrides.llm : port,
    llmCache: port?.cache ?? null,
    redis: shared.redis,
    graph: buildAnalysisGraph(),
    metrics: createMetrics(),
  };
}
