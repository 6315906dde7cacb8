import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loopbackClients, postFrom } from "../../test/support/loopback-clients.js";
import { trainingHistoryRequest } from "../data/training-history.js";
import { pollUntil, timedPost } from "../lib/http.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchRow, ratioOf } from "../lib/result.js";
import type { BenchResult } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { buildOnce, OUT_DIR, type RunningService, withService } from "../lib/service.js";
import { round } from "../lib/stats.js";

/** Analyses kept in flight throughout, as in the soak that showed the lazy heap growth (issue #19). */
const CONCURRENCY = 8;
/** The old-space cap docs/deployment.md recommends for a container; checked below to admit the largest analysis. */
const HEAP_CAP_MB = 512;
/** The largest body the default limits admit (SERVICE_MAX_BODY_BYTES is 64 MiB), less room for the JSON framing. */
const LARGEST_BODY_BYTES = 63 * 1024 ** 2;
/** Bytes per history step in the generated body (6 metrics at six decimals), as healthz_under_load sizes it. */
const BYTES_PER_POINT = 53;
/** Growth of RSS after forced GC, last sample over the first after warm-up, that still counts as flat. */
const FLAT_RATIO = 1.1;
const MB = 1024 ** 2;

interface GcSample {
  rssBefore: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  arrayBuffers: number;
  threads: number | null;
}

interface Soak {
  samples: GcSample[];
  analyses: number;
  failed: number;
}

/** Idle RSS after the largest analyses may be at most this multiple of the RSS just after start (issue 37). */
const IDLE_RATIO = 1.5;
/** How long the idle service is given to give memory back (server/idle-memory.ts checks every 5 s). */
const IDLE_WAIT_MS = 30_000;

/** Forces a GC in the host (or, `forced` false, only reads its memory) and waits for the sample it appends. */
async function gcSample(service: RunningService, file: string, forced = true): Promise<GcSample> {
  const read = () => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);
  const have = read().length;
  process.kill(service.process.child.pid!, forced ? "SIGUSR2" : "SIGWINCH");
  if (!(await pollUntil(async () => read().length > have, 10_000, 20))) throw new Error("the soak host wrote no GC sample within 10 s");
  return JSON.parse(read()[have]!) as GcSample;
}

/** The idle service's own RSS (no forced GC) once it has given memory back, or after IDLE_WAIT_MS. */
async function idleSample(service: RunningService, file: string, limit: number): Promise<{ sample: GcSample; waitedMs: number }> {
  const started = performance.now();
  let sample = await gcSample(service, file, false);
  while (sample.rss > limit && performance.now() - started < IDLE_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    sample = await gcSample(service, file, false);
  }
  return { sample, waitedMs: Math.round(performance.now() - started) };
}

/** CONCURRENCY clients sending the sample analysis back to back for `seconds`, with a forced-GC sample every `every` s. */
async function soak(service: RunningService, file: string, seconds: number, samples: number): Promise<Soak> {
  const url = `${service.url}/v1/analyse`;
  const body = readSampleRequest();
  const end = performance.now() + seconds * 1000;
  let analyses = 0;
  let failed = 0;
  const clients = Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < end) {
      const answer = await timedPost(url, body);
      if (answer.status === 200) analyses++;
      else failed++;
    }
  });
  const taken: GcSample[] = [];
  for (let i = 0; i < samples; i++) {
    await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / samples));
    taken.push(await gcSample(service, file));
  }
  await Promise.all(clients);
  return { samples: taken, analyses, failed };
}

/** One soak of the service as `npm start` runs it, with NODE_OPTIONS as given; and, if asked, the largest analyses after. */
async function soakWith(nodeOptions: string, profile: BenchProfile, largest: boolean) {
  const name = nodeOptions ? "memory-soak-capped" : "memory-soak-default";
  const file = join(OUT_DIR, `${name}.gc.jsonl`);
  rmSync(file, { force: true });
  buildOnce();
  const seconds = profile.mode === "full" ? 180 : 20;
  const samples = profile.mode === "full" ? 12 : 4;
  return withService(
    {
      name,
      entry: "bench/hosts/service-with-gc.mjs",
      // The bench is one address playing every client: the per-client cap is lifted above the concurrency.
      env: { SOAK_GC_FILE: file, SERVICE_MAX_CONCURRENT_PER_CLIENT: "100", ...(nodeOptions && { NODE_OPTIONS: nodeOptions }) },
    },
    async (service) => {
      const postStart = await gcSample(service, file, false);
      await timedPost(`${service.url}/v1/analyse`, readSampleRequest()); // warm-up
      const warm = await gcSample(service, file, false);
      const run = await soak(service, file, seconds, samples);
      if (!largest) return { run, largest: null };
      // The largest analysis the limits allow, SERVICE_MAX_CONCURRENT_ANALYSES (10) of them at once, each from its own
      // address: the heap cap must admit them all.
      const bytes = profile.mode === "full" ? LARGEST_BODY_BYTES : profile.largeBodyBytes;
      const big = Buffer.from(JSON.stringify(trainingHistoryRequest(Math.round(bytes / BYTES_PER_POINT))));
      const answers = await Promise.all(loopbackClients(10, 300).map((address) => postFrom(`${service.url}/v1/analyse`, big, address)));
      const busy = await gcSample(service, file, false);
      const idle = await idleSample(service, file, IDLE_RATIO * postStart.rss);
      return {
        run,
        largest: { bodyMiB: round(big.length / MB), statuses: answers.map((a) => a.status), peakRssBefore: busy.rss, postStart, warm, busy, idle: idle.sample, idleWaitMs: idle.waitedMs },
      };
    },
  );
}

const mib = (bytes: number) => round(bytes / MB);

/** memory_soak: RSS after forced GC over a soak at 8 concurrent analyses, by default and with the container heap cap. */
export async function benchMemorySoak(profile: BenchProfile): Promise<BenchResult> {
  const plain = await soakWith("", profile, false);
  const capped = await soakWith(`--max-old-space-size=${HEAP_CAP_MB}`, profile, true);
  const rows = (label: string, run: Soak): BenchRow[] => {
    const first = run.samples[0]!;
    const last = run.samples.at(-1)!;
    return [
      { metric: `${label}: RSS after forced GC, first sample`, value: mib(first.rss), unit: "MiB" },
      { metric: `${label}: RSS after forced GC, last sample`, value: mib(last.rss), unit: "MiB", baseline: mib(first.rss), ratio: ratioOf(last.rss, first.rss) },
      { metric: `${label}: highest RSS before GC`, value: mib(Math.max(...run.samples.map((s) => s.rssBefore))), unit: "MiB" },
      { metric: `${label}: heap used after GC, last sample`, value: mib(last.heapUsed), unit: "MiB" },
      { metric: `${label}: analyses answered 200 (others)`, value: run.analyses, unit: `analyses (${run.failed} not 200)` },
    ];
  };
  const growth = ratioOf(plain.run.samples.at(-1)!.rss, plain.run.samples[0]!.rss);
  const cappedGrowth = ratioOf(capped.run.samples.at(-1)!.rss, capped.run.samples[0]!.rss);
  const largest = capped.largest!;
  const admitted = largest.statuses.every((s) => s === 200);
  const idleRatio = ratioOf(largest.idle.rss, largest.postStart.rss);
  const givenBack = idleRatio !== null && idleRatio <= IDLE_RATIO;
  return {
    name: "memory_soak",
    value: growth === null ? null : round(growth),
    unit: "× RSS after GC",
    baseline: 1,
    target: `RSS after forced GC ≤ ${FLAT_RATIO}× its first sample, default and with --max-old-space-size=${HEAP_CAP_MB}; 10 analyses of the largest body all 200 under the cap; idle RSS after them ≤ ${IDLE_RATIO}× the RSS just after start`,
    met: growth !== null && cappedGrowth !== null && growth <= FLAT_RATIO && cappedGrowth <= FLAT_RATIO && admitted && givenBack && plain.run.failed === 0 && capped.run.failed === 0,
    description: `RSS after a forced full GC at the end of a ${profile.mode === "full" ? "3-minute" : "20-second"} soak at ${CONCURRENCY} concurrent sample analyses ÷ the same after the first interval (default node flags)`,
    baselineDescription: "flat: 1",
    rows: [
      ...rows("default heap", plain.run),
      ...rows(`--max-old-space-size=${HEAP_CAP_MB}`, capped.run),
      { metric: `10 × ${largest.bodyMiB} MiB analyses under the cap: answered 200`, value: largest.statuses.filter((s) => s === 200).length, unit: `of 10 (statuses ${[...new Set(largest.statuses)].join(", ")})` },
      { metric: `10 × ${largest.bodyMiB} MiB analyses under the cap: RSS before GC after them`, value: mib(largest.peakRssBefore), unit: "MiB" },
      { metric: "RSS just after start (no request yet)", value: mib(largest.postStart.rss), unit: "MiB" },
      { metric: "RSS after the warm-up analysis (modules and indexes loaded on first use)", value: mib(largest.warm.rss), unit: "MiB", baseline: mib(largest.postStart.rss), ratio: ratioOf(largest.warm.rss, largest.postStart.rss) },
      {
        metric: `idle RSS ${round(largest.idleWaitMs / 1000)} s after the largest analyses, no forced GC (heap ${mib(largest.idle.heapUsed)} MiB, ArrayBuffers ${mib(largest.idle.arrayBuffers)} MiB, ${largest.idle.threads} threads)`,
        value: mib(largest.idle.rss),
        unit: "MiB",
        baseline: mib(largest.postStart.rss),
        ratio: idleRatio,
        target: `≤ ${IDLE_RATIO}× RSS just after start`,
        met: idleRatio !== null && idleRatio <= IDLE_RATIO,
        inTable: true,
      },
    ],
    detail: { concurrency: CONCURRENCY, heapCapMb: HEAP_CAP_MB, default: plain.run, capped: capped.run, largest, cappedGrowth, idleRatio, idleRatioTarget: IDLE_RATIO },
  };
}
