import { Router } from "express";
import { debugUiEnabled } from "../../config/env.js";
import { describeLlmConfig } from "../../llm/config.js";
import { type Admission, DRAINING_RETRY_AFTER } from "../admission.js";
import { createReadinessChecks } from "../readiness.js";
import type { ServiceRuntime } from "../runtime.js";

/**
 * GET /healthz (the process answers) and GET /readyz: `ready`, or `degraded` with the failing dependencies named
 * (still 200: the service answers deterministically or from inline artifacts), or 503 `draining` at shutdown,
 * the one state in which it cannot serve.
 */
export function createHealthRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const debugUi = debugUiEnabled(runtime.settings);
  const checkDependencies = createReadinessChecks({ settings: runtime.settings, llmConfig: runtime.llmConfig, redis: runtime.redis });
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const draining = admission.draining;
    const checks = draining ? [] : await checkDependencies();
    const failing = checks.filter((c) => !c.ok).map((c) => c.name);
    if (draining) res.set("Retry-After", DRAINING_RETRY_AFTER);
    res.status(draining ? 503 : 200).json({
      status: draining ? "draining" : failing.length > 0 ? "degraded" : "ready",
      failing,
      checks,
      graph: runtime.graph.name ?? "analysis",
      // The model, endpoint and settings describe the deployment: only where the debug surfaces are served.
      llm: debugUi ? describeLlmConfig(runtime.llmConfig) : { mode: runtime.llmConfig ? "llm" : "deterministic" },
      in_flight: admission.inFlight,
      max_in_flight: runtime.settings.SERVICE_MAX_CONCURRENT_ANALYSES,
      open_requests: admission.open,
    });
  });
  return router;
}
