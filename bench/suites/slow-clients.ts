import { loopbackClients, openSlowBody, postFrom, type SlowBody } from "../../test/support/loopback-clients.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { withService } from "../lib/service.js";
import { round } from "../lib/stats.js";

const TARGET_RATIO = 0.9;
/** Normal clients, each on its own loopback address, sending the sample analysis one after another. */
const NORMAL_CLIENTS = 4;

interface Load {
  /** 200 answers per second. */
  rps: number;
  statuses: Record<string, number>;
}

/** Closed-loop load: every normal client sends the sample analysis again as soon as it has its answer. */
async function normalLoad(url: string, body: string, seconds: number): Promise<Load> {
  const statuses: Record<string, number> = {};
  const deadline = performance.now() + seconds * 1000;
  const clients = loopbackClients(NORMAL_CLIENTS, 400).map(async (address) => {
    while (performance.now() < deadline) {
      const { status } = await postFrom(url, body, address);
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    }
  });
  await Promise.all(clients);
  return { rps: (statuses["200"] ?? 0) / seconds, statuses };
}

const mergeCounts = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));

/** slow_clients: throughput of normal clients while slow-body connections are held open, against none. */
export async function benchSlowClients(profile: BenchProfile): Promise<BenchResult> {
  const body = readSampleRequest();
  const seconds = profile.slowClientSeconds;
  // Without, with, without again: the baseline is the mean of the runs on either side, so a machine whose load
  // drifts over the half minute does not pass for an effect of the slow connections.
  const { before, withSlow, after } = await withService({ name: "slow-clients-service" }, async (service) => {
    const url = `${service.url}/v1/analyse`;
    await normalLoad(url, body, 1); // warm-up
    const before = await normalLoad(url, body, seconds);
    const slow: SlowBody[] = loopbackClients(profile.slowClients).map((localAddress) => openSlowBody(url, { localAddress }));
    let withSlow: Load;
    try {
      // Every slow connection has connected and sent its headers and first byte before the load starts.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      withSlow = await normalLoad(url, body, seconds);
    } finally {
      for (const s of slow) s.close();
    }
    return { before, withSlow, after: await normalLoad(url, body, seconds) };
  });
  const without: Load = { rps: (before.rps + after.rps) / 2, statuses: mergeCounts(before.statuses, after.statuses) };
  const ratio = ratioOf(withSlow.rps, without.rps);
  return {
    name: "slow_clients",
    value: withSlow.rps,
    unit: "req/s",
    baseline: without.rps,
    ratio,
    target: `ratio ≥ ${TARGET_RATIO}`,
    met: ratio !== null && ratio >= TARGET_RATIO,
    description: `200 answers per second to ${NORMAL_CLIENTS} normal clients (sample analysis, deterministic mode, each client on its own loopback address) over ${seconds} s while ${profile.slowClients} slow-body connections (headers, then one body byte a second, each from its own address) are held open`,
    baselineDescription: "the same load with no slow connection, mean of a run just before and one just after",
    note: `Answers with slow connections held: ${JSON.stringify(withSlow.statuses)}; without: ${JSON.stringify(without.statuses)}.`,
    rows: [
      { metric: `throughput, ${profile.slowClients} slow bodies held`, value: withSlow.rps, unit: "req/s", baseline: without.rps, ratio, target: `≥ ${TARGET_RATIO}× baseline`, met: ratio !== null && ratio >= TARGET_RATIO },
      { metric: "non-200 answers to normal clients, slow bodies held", value: Object.entries(withSlow.statuses).reduce((n, [s, c]) => n + (s === "200" ? 0 : c), 0), unit: "" },
    ],
    detail: { seconds, slow_clients: profile.slowClients, with_slow: { ...withSlow, rps: round(withSlow.rps) }, before: { ...before, rps: round(before.rps) }, after: { ...after, rps: round(after.rps) } },
  };
}
