import { type DelayedFakeLlm, fakeLlmEnv, timedLlmAnalysis, warmLlmPath, withDelayedFakeLlm } from "../lib/fake-llm.js";
import { getJson, pollUntil, timedPost, type TimedResponse } from "../lib/http.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { type RunningService, withService } from "../lib/service.js";
import { median, round, since } from "../lib/stats.js";

const LIMIT = 10;
/** Issue 18: ten at once within 10 % of one alone. */
const TARGET_RATIO = 1.1;
const TARGET_REFUSAL_MS = 50;
/** Requests sent one after another while the limit is full; each must be refused. */
const PROBES = 5;
/** Model delay while the limit is held full for the probes (the analyses are cancelled after). */
const HOLD_DELAY_MS = 30_000;
/** Untimed analyses before the first round, LIMIT at a time (warmLlmPath). */
const WARM_UP_ANALYSES = 20;

interface Round {
  singleMs: number;
  totalMs: number;
  statuses: number[];
  /** Service CPU time over the round ÷ the analyses in it (null without /proc). */
  cpuPerAnalysisMs: number | null;
}

async function concurrentRound(service: RunningService, body: string, single: number): Promise<Round> {
  const cpuBefore = service.cpuMs();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: LIMIT }, () => timedPost(`${service.url}/v1/analyse`, body)));
  const totalMs = since(started);
  const cpuAfter = service.cpuMs();
  return {
    singleMs: single,
    totalMs,
    statuses: answers.map((a) => a.status),
    cpuPerAnalysisMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / LIMIT,
  };
}

const inFlight = async (base: string) => (await getJson(`${base}/readyz`)).in_flight as number;

/**
 * Fills the limit with analyses held on a slow model, sends PROBES more one after another (each should be a
 * 503), then cancels the held ones (the service aborts an analysis whose client went away).
 */
async function refusalProbes(base: string, body: string, llm: DelayedFakeLlm): Promise<TimedResponse[]> {
  const url = `${base}/v1/analyse`;
  const delay = llm.delayMs;
  llm.delayMs = HOLD_DELAY_MS;
  const cancel = new AbortController();
  const held = Array.from({ length: LIMIT }, () => timedPost(url, body, cancel.signal).catch(() => null));
  try {
    if (!(await pollUntil(async () => (await inFlight(base)) === LIMIT, 20_000, 10))) {
      throw new Error(`the service never had ${LIMIT} analyses in flight`);
    }
    const probes: TimedResponse[] = [];
    for (let i = 0; i < PROBES; i++) probes.push(await timedPost(url, body));
    return probes;
  } finally {
    cancel.abort();
    await Promise.all(held);
    llm.delayMs = delay;
    await pollUntil(async () => (await inFlight(base)) === 0, 20_000, 20);
  }
}

/** concurrent_isolation: 10 analyses at once vs one alone, and how fast an 11th is refused. */
export async function benchConcurrentIsolation(profile: BenchProfile): Promise<BenchResult> {
  const body = readSampleRequest();
  const { rounds, probes } = await withDelayedFakeLlm(profile.llmDelayMs, (llm) =>
    // The bench is one address playing every client: the per-client cap (429) is lifted above the limit, so the
    // 11th request meets the process-wide limit (503) this benchmark is about.
    withService({ name: "concurrent-isolation-service", env: { ...fakeLlmEnv(llm.fake), SERVICE_MAX_CONCURRENT_ANALYSES: String(LIMIT), SERVICE_MAX_CONCURRENT_PER_CLIENT: "100" } }, async (service) => {
      const url = `${service.url}/v1/analyse`;
      await warmLlmPath(url, body, llm, WARM_UP_ANALYSES, LIMIT);
      const rounds: Round[] = [];
      for (let i = 0; i < profile.isolationRounds; i++) {
        const single = (await timedLlmAnalysis(url, body, llm)).ms;
        rounds.push(await concurrentRound(service, body, single));
      }
      return { rounds, probes: await refusalProbes(service.url, body, llm) };
    }),
  );
  const ratio = median(rounds.map((r) => r.totalMs / r.singleMs));
  const cpus = rounds.flatMap((r) => (r.cpuPerAnalysisMs === null ? [] : [r.cpuPerAnalysisMs]));
  const cpuPerAnalysis = cpus.length ? median(cpus) : null;
  const refused = probes.filter((p) => p.status === 503).map((p) => p.ms);
  // The median of the probes is "the latency" the target speaks of; the slowest shows the machine's noise.
  const refusal = refused.length === PROBES ? median(refused) : null;
  const refusalMet = refusal !== null && refusal < TARGET_REFUSAL_MS;
  const failed = rounds.flatMap((r) => r.statuses.filter((s) => s !== 200));
  const value = median(rounds.map((r) => r.totalMs));
  return {
    name: "concurrent_isolation",
    value,
    unit: "ms",
    baseline: median(rounds.map((r) => r.singleMs)),
    ratio,
    target: `ratio ≤ ${TARGET_RATIO}; 11th request refused (503) in < ${TARGET_REFUSAL_MS} ms`,
    met: ratio <= TARGET_RATIO && refusalMet && failed.length === 0,
    description: `total wall time of ${LIMIT} sample analyses sent at once over HTTP, the fake model answering after ${profile.llmDelayMs} ms, median of ${profile.isolationRounds} round(s) after ${WARM_UP_ANALYSES} untimed analyses`,
    baselineDescription: "one analysis alone, timed just before each round",
    note: [
      `Answers to the ${LIMIT}: ${failed.length === 0 ? "all 200" : `${failed.length} not 200 (${failed.join(", ")})`}.`,
      `Refusals: with ${LIMIT} analyses held in flight on a slow model, ${refused.length} of ${PROBES} further requests were refused with 503 (statuses ${probes.map((p) => p.status).join(", ")}).`,
    ].join(" "),
    rows: [
      { metric: `${LIMIT} at once ÷ one alone`, value: ratio, unit: "", target: `≤ ${TARGET_RATIO}`, met: ratio <= TARGET_RATIO },
      { metric: "service CPU time per analysis, 10 at once", value: cpuPerAnalysis, unit: "ms" },
      { metric: `11th request refused with 503, median of ${PROBES}`, value: refusal, unit: "ms", target: `< ${TARGET_REFUSAL_MS} ms`, met: refusalMet },
      { metric: "11th request refused with 503, slowest", value: refused.length ? Math.max(...refused) : null, unit: "ms" },
    ],
    detail: {
      delay_ms: profile.llmDelayMs,
      rounds: rounds.map((r) => ({ single_ms: round(r.singleMs), total_ms: round(r.totalMs), statuses: r.statuses, cpu_per_analysis_ms: r.cpuPerAnalysisMs })),
      probes: probes.map((p) => ({ status: p.status, ms: round(p.ms) })),
    },
  };
}
