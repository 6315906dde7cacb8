import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createLogger } from "../../config/logger.js";
import { createApp, type ServiceApp } from "../../server/app.js";
import { applyConnectionTimeouts } from "../../server/intake.js";
import { createServiceRuntime, type RuntimeOverrides, type ServiceRuntime } from "../../server/runtime.js";

export interface RunningService {
  url: string;
  runtime: ServiceRuntime;
  service: ServiceApp;
  logs: string[];
  close(): Promise<void>;
}

/** Starts the real app on a free loopback port with the given environment and dependency overrides. */
export async function startService(env: Record<string, string> = {}, overrides: RuntimeOverrides = {}): Promise<RunningService> {
  const logs: string[] = [];
  const logger = createLogger("info", {}, (line) => logs.push(line));
  const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "info", ...env }, { logger, ...overrides });
  const service = createApp(runtime);
  const server: Server = await new Promise((resolve) => {
    const s = service.app.listen(0, "127.0.0.1", () => resolve(s));
  });
  applyConnectionTimeouts(server, runtime.settings);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runtime,
    service,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** POSTs a JSON (or raw text) body and returns status, headers and the parsed JSON body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}
