import { get } from "node:http";
import { loopbackClients, postFrom } from "../../test/support/loopback-clients.js";
import { trainingHistoryRequest } from "../data/training-history.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { withService } from "../lib/service.js";
import { quantile, round, since } from "../lib/stats.js";

const TARGET_P99_MS = 100;
/** Pause between two /healthz probes (each waits for its answer first). */
const PROBE_GAP_MS = 10;
/** Bytes per history step in the generated body (6 metrics at six decimals), to size it. */
const BYTES_PER_POINT = 53;

/**
 * One GET /healthz on a connection of its own, as the kubelet probes (its HTTP prober disables keep-alive): a
 * kept-alive socket can be closed by the server's idle timer when a blocked event loop resumes, and that reset
 * is not what a liveness probe sees.
 */
function probeOnce(base: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(`${base}/healthz`, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`/healthz answered ${res.statusCode}`))));
    }).on("error", reject);
  });
}

/** Probes GET /healthz one after another until `stop` resolves; the latency of each, ms. */
async function probeHealth(base: string, stop: Promise<unknown>): Promise<number[]> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const latencies: number[] = [];
  while (!stopped) {
    const started = performance.now();
    await probeOnce(base);
    latencies.push(since(started));
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  return latencies;
}

const summary = (ms: number[]) => ({ p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), max: Math.max(...ms), n: ms.length });

/** healthz_under_load: how long a liveness probe waits while large analyses are parsed and run. */
export async function benchHealthzUnderLoad(profile: BenchProfile): Promise<BenchResult> {
  const body = Buffer.from(JSON.stringify(trainingHistoryRequest(Math.round(profile.largeBodyBytes / BYTES_PER_POINT))));
  const { idle, loaded, statuses, wallMs } = await withService({ name: "healthz-under-load-service" }, async (service) => {
    const url = `${service.url}/v1/analyse`;
    const warm = await postFrom(url, JSON.stringify(trainingHistoryRequest(1000)), "127.0.0.2");
    if (warm.status !== 200) throw new Error(`the warm-up analysis answered ${warm.status}: ${warm.text.slice(0, 300)}`);
    const idle = await probeHealth(service.url, new Promise((resolve) => setTimeout(resolve, 2000)));
    const started = performance.now();
    // Each large body from its own loopback address: ten clients, not one client over its per-client cap.
    const analyses = Promise.all(loopbackClients(profile.largeBodies, 300).map((address) => postFrom(url, body, address)));
    const loaded = await probeHealth(service.url, analyses);
    const answers = await analyses;
    return { idle, loaded, statuses: answers.map((a) => a.status), wallMs: since(started) };
  });
  const during = summary(loaded);
  const before = summary(idle);
  const met = during.p99 <= TARGET_P99_MS && statuses.every((s) => s === 200);
  const mib = round(body.length / 1024 ** 2);
  return {
    name: "healthz_under_load",
    value: during.p99,
    unit: "ms",
    baseline: before.p99,
    ratio: ratioOf(during.p99, before.p99),
    target: `p99 ≤ ${TARGET_P99_MS} ms, every analysis 200`,
    met,
    description: `p99 latency of GET /healthz, probed one after another on a new connection each (${PROBE_GAP_MS} ms apart), while ${profile.largeBodies} analyses of a ${mib} MiB training-history body (deterministic mode) are sent at once and run`,
    baselineDescription: "the same probes with the service idle, just before",
    note: `Analyses answered ${statuses.join(", ")} in ${Math.round(wallMs)} ms for all ${profile.largeBodies}; ${during.n} probes during them.`,
    rows: [
      { metric: "/healthz p50 under load", value: during.p50, unit: "ms", baseline: before.p50, ratio: ratioOf(during.p50, before.p50) },
      { metric: "/healthz p99 under load", value: during.p99, unit: "ms", baseline: before.p99, ratio: ratioOf(during.p99, before.p99), target: `≤ ${TARGET_P99_MS} ms`, met: during.p99 <= TARGET_P99_MS },
      { metric: "/healthz slowest under load", value: during.max, unit: "ms", baseline: before.max },
      { metric: `wall time of the ${profile.largeBodies} analyses`, value: wallMs, unit: "ms" },
    ],
    detail: { body_bytes: body.length, statuses, idle: before, loaded: during, loaded_samples: loaded.map(round) },
  };
}
