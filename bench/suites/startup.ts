import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { buildOnce, type StartOptions, startService } from "../lib/service.js";
import { median } from "../lib/stats.js";

/** Wall time to ready, and the CPU the process used to get there (steadier than wall time on a shared machine). */
async function timeToReady(options: StartOptions): Promise<{ wall: number; cpu: number | null }> {
  const service = await startService(options);
  const cpu = service.cpuMs();
  await service.stop();
  return { wall: service.readyMs, cpu };
}

const BARE = "bench/hosts/bare-server.mjs";
/** Issue 18: start-up to ready. */
const TARGET_MS = 500;

/** startup: spawn → first 200 from /readyz for `npm start` (node dist/), next to a bare HTTP server under plain node. */
export async function benchStartup(profile: BenchProfile): Promise<BenchResult> {
  buildOnce();
  const runs = { built: [] as Array<{ wall: number; cpu: number | null }>, sources: [] as number[], bareNode: [] as Array<{ wall: number; cpu: number | null }> };
  // Interleaved, so a noisy moment on the shared machine hits all three alike.
  for (let i = 0; i < profile.startups; i++) {
    runs.bareNode.push(await timeToReady({ name: "startup-bare-node", entry: BARE, launcher: "node", portArgument: true, readyPath: "/" }));
    runs.built.push(await timeToReady({ name: "startup-service", entry: "dist/server/main.js", launcher: "node" }));
    runs.sources.push((await timeToReady({ name: "startup-service-tsx", entry: "server/main.ts", launcher: "tsx" })).wall);
  }
  const built = runs.built.map((r) => r.wall);
  const sources = runs.sources;
  const bareNode = runs.bareNode.map((r) => r.wall);
  const cpuOf = (xs: Array<{ cpu: number | null }>) => (xs.every((r) => r.cpu !== null) ? median(xs.map((r) => r.cpu!)) : null);
  const [builtCpu, bareCpu] = [cpuOf(runs.built), cpuOf(runs.bareNode)];
  const value = median(built);
  const baseline = median(bareNode);
  return {
    name: "startup",
    value,
    unit: "ms",
    baseline,
    ratio: ratioOf(value, baseline),
    target: `start-up to ready ≤ ${TARGET_MS / 1000} s`,
    met: value <= TARGET_MS,
    description: `time from spawning \`node dist/server/main.js\` (what \`npm start\` runs, default settings) to the first 200 from GET /readyz, median of ${profile.startups}`,
    baselineDescription: "a bare node:http server started by plain node the same way, to its first 200",
    rows: [
      { metric: "service (node dist/server/main.js)", value, unit: "ms", baseline, ratio: ratioOf(value, baseline), target: `≤ ${TARGET_MS} ms`, met: value <= TARGET_MS },
      { metric: "service CPU time to ready (user + system)", value: builtCpu, unit: "ms", baseline: bareCpu, ratio: ratioOf(builtCpu, bareCpu) },
      { metric: "service from the sources (tsx server/main.ts, npm run dev)", value: median(sources), unit: "ms" },
      { metric: "bare server under plain node", value: baseline, unit: "ms" },
    ],
    detail: { service_ms: built, service_tsx_ms: sources, bare_node_ms: bareNode, service_cpu_ms: runs.built.map((r) => r.cpu), bare_node_cpu_ms: runs.bareNode.map((r) => r.cpu) },
  };
}
