import { fakeLlmEnv, type LlmAnalysis, timedLlmAnalysis, warmLlmPath, withDelayedFakeLlm } from "../lib/fake-llm.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { withService } from "../lib/service.js";
import { median, round } from "../lib/stats.js";

/** Issue 18: within 2 % of the critical path. */
export const TARGET = 1.02;
/** Model calls on the critical path of a 4-artifact analysis with 3 workers: two analyzer waves, integrate, advise. */
export const CRITICAL_CALLS = 4;
/** Untimed analyses before the timed ones, within the service's default per-client cap of 4 at a time (warmLlmPath). */
const WARM_UP_ANALYSES = 20;
const WARM_UP_CONCURRENCY = 4;

/** parallel_efficiency: wall time of the sample analysis with a fixed-delay model ÷ its critical path 4L. */
export async function benchParallelEfficiency(profile: BenchProfile): Promise<BenchResult> {
  const delay = profile.llmDelayMs;
  const critical = CRITICAL_CALLS * delay;
  const body = readSampleRequest();
  const { timed: runs, cpuPerAnalysis } = await withDelayedFakeLlm(delay, (llm) =>
    withService({ name: "parallel-efficiency-service", env: { ...fakeLlmEnv(llm.fake), SERVICE_ANALYZER_WORKERS: "3" } }, async (service) => {
      const url = `${service.url}/v1/analyse`;
      await warmLlmPath(url, body, llm, WARM_UP_ANALYSES, WARM_UP_CONCURRENCY);
      const timed: LlmAnalysis[] = [];
      const cpuBefore = service.cpuMs();
      for (let i = 0; i < profile.llmAnalyses; i++) timed.push(await timedLlmAnalysis(url, body, llm));
      const cpuAfter = service.cpuMs();
      return { timed, cpuPerAnalysis: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / timed.length };
    }),
  );
  const value = median(runs.map((r) => r.ms));
  const ratio = ratioOf(value, critical)!;
  const calls = runs.map((r) => r.calls.length);
  const errors = runs.flatMap((r) => Object.entries(r.errors).map(([agent, msg]) => `${agent}: ${msg}`));
  const timeline = runs[0]!.calls.map((c) => `${c.agent} +${Math.round(c.offsetMs)} ms`).join(", ");
  return {
    name: "parallel_efficiency",
    value,
    unit: "ms",
    baseline: critical,
    ratio,
    target: `ratio ≤ ${TARGET}`,
    met: ratio <= TARGET,
    description: `wall time over HTTP of the sample analysis (4 artifacts, 3 analyzer workers) with every model call answered by the project's fake OpenAI-compatible server after ${delay} ms, median of ${profile.llmAnalyses} after ${WARM_UP_ANALYSES} untimed ones`,
    baselineDescription: `the critical path, 4 × ${delay} ms (two analyzer waves + integrate + advise)`,
    note: `Model calls per analysis: ${[...new Set(calls)].join("/")} (one per agent expected: 6). Call arrivals in the first timed run: ${timeline}.${errors.length ? ` Agent errors: ${errors.join("; ")}.` : ""}`,
    rows: [
      { metric: "wall time ÷ critical path", value: ratio, unit: "", target: `≤ ${TARGET}`, met: ratio <= TARGET },
      { metric: "overhead beyond the model's delays", value: value - critical, unit: "ms" },
      { metric: "service CPU time per analysis", value: cpuPerAnalysis, unit: "ms" },
    ],
    detail: {
      delay_ms: delay,
      wall_ms: runs.map((r) => round(r.ms)),
      calls_per_analysis: calls,
      call_offsets_ms: runs.map((r) => r.calls.map((c) => ({ agent: c.agent, offset_ms: round(c.offsetMs) }))),
    },
  };
}
