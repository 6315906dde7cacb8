import { randomUUID } from "node:crypto";
import express, { type Express } from "express";
import helmet from "helmet";
import { debugUiEnabled } from "../config/env.js";
import { type Admission, createAdmission } from "./admission.js";
import { cors } from "./cors.js";
import { clientGone, errorMiddleware, ServiceError } from "./errors.js";
import { jsonBodyIntake } from "./intake.js";
import { jsonWriter, useJsonWriter } from "./json-writer.js";
import { methodNotAllowed } from "./method-not-allowed.js";
import type { Metrics } from "./metrics.js";
import { buildOpenApiDocument } from "./openapi.js";
import { createAnalyseRouter } from "./routes/analyse.js";
import { createCompareRouter } from "./routes/compare.js";
import { createDebugRouter } from "./routes/debug.js";
import { createGraphRouter } from "./routes/graph.js";
import { createHealthRouter } from "./routes/health.js";
import { createJobsRouter } from "./routes/jobs.js";
import { createReportRouter } from "./routes/report.js";
import { createKnowledgeRouter } from "./routes/knowledge.js";
import type { ServiceRuntime } from "./runtime.js";
import { createJobQueue } from "./job-queue.js";
import type { JobQueue } from "../jobs/queue.js";

export interface ServiceApp {
  app: Express;
  admission: Admission;
  metrics: Metrics;
  /** Closed at shutdown (server/main.ts). */
  jobs: JobQueue;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The HTTP application over a runtime; listening and shutdown live in main.ts. */
export function createApp(runtime: ServiceRuntime): ServiceApp {
  const app = express();
  app.disable("x-powered-by");
  const { settings, redactor } = runtime;
  useJsonWriter(app, jsonWriter(redactor));
  const admission = createAdmission({
    maxInFlight: settings.SERVICE_MAX_CONCURRENT_ANALYSES,
    maxPerClient: settings.SERVICE_MAX_CONCURRENT_PER_CLIENT,
    trustedProxies: settings.SERVICE_TRUST_PROXY,
  });
  const { metrics } = runtime;
  metrics.gauge("analyses_in_flight", "Analyses running now (synchronous requests and jobs)", () => admission.inFlight);
  metrics.gauge("work_requests_open", "Work requests admitted and not yet answered", () => admission.open);
  const knowledgeCache = () => runtime.knowledgeBase.stats().cache;
  metrics.counter("knowledge_cache_hits_total", "Knowledge lookups answered from the cache", () => knowledgeCache().hits);
  metrics.counter("knowledge_cache_misses_total", "Knowledge lookups that ranked the corpus", () => knowledgeCache().misses);
  metrics.counter("knowledge_cache_deduplicated_total", "Knowledge lookups that joined an identical lookup in flight", () => knowledgeCache().deduplicated);
  metrics.counter("knowledge_cache_evictions_total", "Knowledge cache entries evicted by the entry or byte bound", () => knowledgeCache().evictions);
  metrics.gauge("knowledge_cache_entries", "Knowledge cache entries held", () => knowledgeCache().entries);
  metrics.gauge("knowledge_cache_bytes", "Knowledge cache size in bytes", () => knowledgeCache().bytes);
  metrics.gauge("knowledge_cache_hit_ratio", "Knowledge cache hits over lookups since start (0 before the first)", () => hitRatio(knowledgeCache()));
  if (runtime.llmCache) {
    const llmCache = runtime.llmCache;
    metrics.counter("llm_cache_hits_total", "Model calls answered from the LLM response cache", () => llmCache.hits);
    metrics.counter("llm_cache_misses_total", "Model calls the LLM response cache could not answer", () => llmCache.misses);
    metrics.gauge("llm_cache_hit_ratio", "LLM cache hits over lookups since start (0 before the first)", () => hitRatio(llmCache));
  }
  const jobs = createJobQueue(runtime, admission);
  metrics.gauge("job_queue_depth", "Jobs waiting for a worker", () => jobs.counts().queued);
  metrics.gauge("jobs_queued", "Jobs waiting for a worker (all replicas with Redis)", () => jobs.counts().queued);
  metrics.gauge("jobs_running", "Jobs running now (all replicas with Redis)", () => jobs.counts().running);
  for (const outcome of ["done", "failed", "cancelled"] as const) {
    metrics.counter(`jobs_${outcome}_total`, `Jobs ended ${outcome} (this process, or all replicas with Redis)`, () => jobs.counts()[outcome]);
  }
  metrics.gauge("job_runs_queued", "Runs of comparison jobs waiting for a run worker (all replicas, with Redis)", () => jobs.runCounts().queued);
  metrics.gauge("job_runs_running", "Runs of comparison jobs being analysed now (all replicas, with Redis)", () => jobs.runCounts().running);
  metrics.counter("job_runs_analysed_total", "Runs of comparison jobs this process analysed, each a job of its own (with Redis, where a comparison's runs are spread over the replicas)", () => jobs.runsAnalysedHere());

  app.use((req, res, next) => {
    const given = req.get("x-request-id");
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.locals.logger = runtime.logger.child({ request_id: requestId });
    res.set("x-request-id", requestId);
    const started = performance.now();
    const log = res.locals.logger as typeof runtime.logger;
    res.on("finish", () => log.info("request", { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) }));
    // A client that leaves is no fault of the service: info, not error; its work is cancelled through the request's signal.
    res.on("close", () => {
      if (clientGone(res)) log.info("client disconnected before the answer; its work is cancelled", { method: req.method, path: req.path, ms: Math.round(performance.now() - started) });
    });
    next();
  });
  app.use(metrics.middleware);
  // Security headers on every answer, errors included. HSTS is left to whatever terminates TLS in front: this
  // process speaks plain HTTP, and a max-age sent from a test host would pin browsers to HTTPS for a year.
  app.use(helmet({ strictTransportSecurity: false }));
  app.use(cors(settings.SERVICE_CORS_ORIGINS));

  app.use(createHealthRouter(runtime, admission));
  app.use(createAnalyseRouter(runtime, admission));
  app.use(createJobsRouter(runtime, admission, jobs));
  app.use(createCompareRouter(runtime, admission));
  app.use(createReportRouter(runtime, admission));
  if (debugUiEnabled(settings)) {
    app.use(createGraphRouter(runtime.graph));
    app.use(createDebugRouter([admission.arrive, ...jsonBodyIntake(settings)]));
  } else {
    app.use(["/debug", "/v1/graph"], (req, _res, next) =>
      next(new ServiceError("NOT_FOUND", 404, `${req.originalUrl.split("?")[0]} is off: the service listens beyond loopback (HOST); set SERVICE_DEBUG_UI=1 to serve the debug page and /v1/graph`)),
    );
  }
  app.use(createKnowledgeRouter(runtime.knowledgeBase));
  // Built on first request: converting the zod schemas to JSON Schema was ~5 % of the CPU to ready (issue 18).
  let openapi: Record<string, unknown> | undefined;
  app.get("/openapi.json", (_req, res) => {
    openapi ??= buildOpenApiDocument({ trackingServer: Boolean(settings.SERVICE_MLFLOW_TRACKING_URI) });
    res.json(openapi);
  });
  app.get("/metrics", async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.render());
  });

  app.use(methodNotAllowed(app));
  app.use((req, _res, next) => next(new ServiceError("NOT_FOUND", 404, `no route for ${req.method} ${req.path}`)));
  app.use(errorMiddleware(runtime.logger));
  return { app, admission, metrics, jobs };
}

/** Hits over lookups of a cache, 0 before the first lookup. */
function hitRatio({ hits, misses }: { hits: number; misses: number }): number {
  return hits + misses === 0 ? 0 : hits / (hits + misses);
}
