import { fakeLlmEnv, timedLlmAnalysis, withDelayedFakeLlm } from "../lib/fake-llm.js";
import { getJson, pollUntil, timedPost, type TimedResponse } from "../lib/http.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { withService } from "../lib/service.js";
import { median, round, since } from "../lib/stats.js";

const LIMIT = 10;
const TARGET_RATIO = 1.2;
const TARGET_REFUSAL_MS = 50;
/** Refused requests sent while the 10 are in flight, one after another. */
const PROBES = 5;

interface Round {
  singleMs: number;
  totalMs: number;
  statuses: number[];
  refusals: TimedResponse[];
}

async function concurrentRound(base: string, body: string, single: number): Promise<Round> {
  const url = `${base}/v1/analyse`;
  const started = performance.now();
  const all = Promise.all(Array.from({ length: LIMIT }, () => timedPost(url, body)));
  const full = await pollUntil(async () => (await getJson(`${base}/readyz`)).in_flight === LIMIT, 10_000);
  if (!full) throw new Error(`the service never had ${LIMIT} analyses in flight`);
  const refusals: TimedResponse[] = [];
  for (let i = 0; i < PROBES; i++) {
    const probe = await timedPost(url, body);
    refusals.push(probe);
    if (probe.status !== 503) break; // a slot freed up: the limit is no longer full
  }
  const answers = await all;
  return { singleMs: single, totalMs: since(started), statuses: answers.map((a) => a.status), refusals };
}

/** concurrent_isolation: 10 analyses at once vs one alone, and how fast an 11th is refused. */
export async function benchConcurrentIsolation(profile: BenchProfile): Promise<BenchResult> {
  const body = readSampleRequest();
  const rounds = await withDelayedFakeLlm(profile.llmDelayMs, (llm) =>
    withService({ name: "concurrent-isolation-service", env: { ...fakeLlmEnv(llm.fake), SERVICE_MAX_CONCURRENT_ANALYSES: String(LIMIT) } }, async (service) => {
      const url = `${service.url}/v1/analyse`;
      await timedLlmAnalysis(url, body, llm); // warm-up
      const out: Round[] = [];
      for (let i = 0; i < profile.isolationRounds; i++) {
        const single = (await timedLlmAnalysis(url, body, llm)).ms;
        out.push(await concurrentRound(service.url, body, single));
      }
      return out;
    }),
  );
  const ratios = rounds.map((r) => r.totalMs / r.singleMs);
  const ratio = median(ratios);
  const refusalMs = rounds.flatMap((r) => r.refusals.filter((p) => p.status === 503).map((p) => p.ms));
  const otherProbes = rounds.flatMap((r) => r.refusals.filter((p) => p.status !== 503).map((p) => p.status));
  const failed = rounds.flatMap((r) => r.statuses.filter((s) => s !== 200));
  const refusal = refusalMs.length ? median(refusalMs) : null;
  const refusalMax = refusalMs.length ? Math.max(...refusalMs) : null;
  const value = median(rounds.map((r) => r.totalMs));
  const single = median(rounds.map((r) => r.singleMs));
  return {
    name: "concurrent_isolation",
    value,
    unit: "ms",
    baseline: single,
    ratio,
    target: `ratio ≤ ${TARGET_RATIO}; 11th request refused (503) in < ${TARGET_REFUSAL_MS} ms`,
    met: ratio <= TARGET_RATIO && refusalMax !== null && refusalMax < TARGET_REFUSAL_MS && failed.length === 0,
    description: `total wall time of ${LIMIT} sample analyses sent at once over HTTP, with the fake model answering after ${profile.llmDelayMs} ms, median of ${profile.isolationRounds} round(s)`,
    baselineDescription: "one analysis alone, timed just before each round",
    note: `Answers to the ${LIMIT}: ${failed.length === 0 ? "all 200" : `${failed.length} not 200 (${failed.join(", ")})`}. ${refusalMs.length} requests sent while ${LIMIT} were in flight were refused with 503${otherProbes.length ? `; ${otherProbes.length} probes were not refused (${otherProbes.join(", ")}): a slot had freed` : ""}.`,
    rows: [
      { metric: `${LIMIT} at once ÷ one alone`, value: ratio, unit: "", target: `≤ ${TARGET_RATIO}`, met: ratio <= TARGET_RATIO },
      { metric: "11th request refused with 503, median", value: refusal, unit: "ms" },
      { metric: "11th request refused with 503, slowest", value: refusalMax, unit: "ms", target: `< ${TARGET_REFUSAL_MS} ms`, met: refusalMax !== null && refusalMax < TARGET_REFUSAL_MS },
    ],
    detail: {
      delay_ms: profile.llmDelayMs,
      rounds: rounds.map((r) => ({
        single_ms: round(r.singleMs),
        total_ms: round(r.totalMs),
        statuses: r.statuses,
        refusals: r.refusals.map((p) => ({ status: p.status, ms: round(p.ms) })),
      })),
    },
  };
}
