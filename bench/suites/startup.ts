import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { type StartOptions, startService } from "../lib/service.js";
import { median } from "../lib/stats.js";

async function timeToReady(options: StartOptions): Promise<number> {
  const service = await startService(options);
  await service.stop();
  return service.readyMs;
}

const BARE = "bench/hosts/bare-server.mjs";

/** startup: spawn → first 200 from /readyz, next to a bare HTTP server started the same way. */
export async function benchStartup(profile: BenchProfile): Promise<BenchResult> {
  const service: number[] = [];
  const bareTsx: number[] = [];
  const bareNode: number[] = [];
  // Interleaved, so a noisy moment on the shared machine hits all three alike.
  for (let i = 0; i < profile.startups; i++) {
    bareNode.push(await timeToReady({ name: "startup-bare-node", entry: BARE, launcher: "node", portArgument: true, readyPath: "/" }));
    bareTsx.push(await timeToReady({ name: "startup-bare-tsx", entry: BARE, portArgument: true, readyPath: "/" }));
    service.push(await timeToReady({ name: "startup-service" }));
  }
  const value = median(service);
  const baseline = median(bareTsx);
  return {
    name: "startup",
    value,
    unit: "ms",
    baseline,
    ratio: ratioOf(value, baseline),
    description: `time from spawning \`tsx server/main.ts\` (what \`npm start\` runs, default settings) to the first 200 from GET /readyz, median of ${profile.startups}`,
    baselineDescription: "a bare node:http server started by tsx the same way, to its first 200",
    rows: [
      { metric: "service (tsx server/main.ts)", value, unit: "ms", baseline, ratio: ratioOf(value, baseline) },
      { metric: "bare server under tsx", value: baseline, unit: "ms" },
      { metric: "bare server under plain node", value: median(bareNode), unit: "ms" },
    ],
    detail: { service_ms: service, bare_tsx_ms: bareTsx, bare_node_ms: bareNode },
  };
}
