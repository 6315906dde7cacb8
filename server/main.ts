import { once } from "node:events";
import { removeOwnWorkspaces, sweepStaleWorkspaces } from "../artifacts/workspace.js";
import { readRawEnv } from "../config/env.js";
import { createApp } from "./app.js";
import { startIdleMemoryRelease } from "./idle-memory.js";
import { applyConnectionTimeouts } from "./intake.js";
import { createServiceRuntime } from "./runtime.js";

/** Starts the service: settings from the environment, listen, drain in-flight analyses on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let runtime;
  try {
    runtime = createServiceRuntime(readRawEnv());
  } catch (err) {
    process.stderr.write(`start-up failed: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const { settings, logger } = runtime;
  const swept = await sweepStaleWorkspaces(settings.SERVICE_WORKSPACE_DIR, 2 * settings.SERVICE_REQUEST_TIMEOUT_MS).catch(() => []);
  if (swept.length > 0) logger.info("removed stale workspaces of an earlier process", { count: swept.length });
  const { app, admission, jobs } = createApp(runtime);
  const server = app.listen(settings.PORT, settings.HOST);
  applyConnectionTimeouts(server, settings);
  await once(server, "listening");
  const address = server.address();
  logger.info("listening", { port: typeof address === "object" && address ? address.port : settings.PORT, host: settings.HOST });
  // Its baseline is the resident set now, just after start (docs/deployment.md, "Memory given back").
  startIdleMemoryRelease({ idle: () => admission.open === 0 && admission.inFlight === 0, logger });
  // After listen, so start-up stays short; before most first requests, so no model call's time-out pays for it.
  runtime.llm?.loadClient().catch((err: Error) => logger.warn("could not load the language model client; model calls will fail", { error: err.message }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal, in_flight: admission.inFlight });
    const drained = await admission.drain(settings.SERVICE_SHUTDOWN_GRACE_MS);
    server.close();
    server.closeIdleConnections();
    if (!drained) logger.warn("grace period over, closing with analyses in flight", { in_flight: admission.inFlight });
    // In memory a running job is cancelled; with BullMQ the worker stops and another replica takes its job.
    await Promise.race([jobs.close(), new Promise((resolve) => setTimeout(resolve, settings.SERVICE_SHUTDOWN_GRACE_MS).unref())]);
    await runtime.redis?.close();
    // Pulls still running are cut off by the exit: their workspaces go now, not at the next start.
    try {
      removeOwnWorkspaces(settings.SERVICE_WORKSPACE_DIR);
    } catch (err) {
      logger.warn("could not remove this process's workspaces; the next start will", { error: (err as Error).message });
    }
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

await main();
