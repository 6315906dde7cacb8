import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { buildOnce, type StartOptions, startService } from "../lib/service.js";
import { median } from "../lib/stats.js";

async function timeToReady(options: StartOptions): Promise<number> {
  const service = await startService(options);
  await service.stop();
  return service.readyMs;
}

const BARE = "bench/hosts/bare-server.mjs";

/** startup: spawn → first 200 from /readyz for `npm start` (node dist/), next to a bare HTTP server under plain node. */
export async function benchStartup(profile: BenchProfile): Promise<BenchResult> {
  buildOnce();
  const built: number[] = [];
  const sources: number[] = [];
  const bareNode: number[] = [];
  // Interleaved, so a noisy moment on the shared machine hits all three alike.
  for (let i = 0; i < profile.startups; i++) {
    bareNode.push(await timeToReady({ name: "startup-bare-node", entry: BARE, launcher: "node", portArgument: true, readyPath: "/" }));
    built.push(await timeToReady({ name: "startup-service", entry: "dist/server/main.js", launcher: "node" }));
    sources.push(await timeToReady({ name: "startup-service-tsx", entry: "server/main.ts", launcher: "tsx" }));
  }
  const value = median(built);
  const baseline = median(bareNode);
  return {
    name: "startup",
    value,
    unit: "ms",
    baseline,
    ratio: ratioOf(value, baseline),
    description: `time from spawning \`node dist/server/main.js\` (what \`npm start\` runs, default settings) to the first 200 from GET /readyz, median of ${profile.startups}`,
    baselineDescription: "a bare node:http server started by plain node the same way, to its first 200",
    rows: [
      { metric: "service (node dist/server/main.js)", value, unit: "ms", baseline, ratio: ratioOf(value, baseline) },
      { metric: "service from the sources (tsx server/main.ts, npm run dev)", value: median(sources), unit: "ms" },
      { metric: "bare server under plain node", value: baseline, unit: "ms" },
    ],
    detail: { service_ms: built, service_tsx_ms: sources, bare_node_ms: bareNode },
  };
}
