import { Router } from "express";
import { debugUiEnabled } from "../../config/env.js";
import { describeLlmConfig } from "../../llm/config.js";
import { type Admission, DRAINING_RETRY_AFTER } from "../admission.js";
import type { ServiceRuntime } from "../runtime.js";

/** GET /healthz (the process answers) and GET /readyz (graph compiled, not draining; reports LLM mode). */
export function createHealthRouter(runtime: ServiceRuntime, admission: Admission): Router {
  const router = Router();
  const debugUi = debugUiEnabled(runtime.settings);
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", (_req, res) => {
    const ready = !admission.draining;
    if (!ready) res.set("Retry-After", DRAINING_RETRY_AFTER);
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "draining",
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
