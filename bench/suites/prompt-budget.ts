import { join } from "node:path";
import { PROMPT_TOKEN_BUDGET } from "../../llm/prompt-kit.js";
import type { BenchProfile } from "../lib/options.js";
import { runWorker } from "../lib/processes.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { childEnv, OUT_DIR, ROOT } from "../lib/service.js";
import { measureSizes, sizeLabel } from "../lib/sizes.js";
import type { PromptCapture } from "../workers/prompt-capture.js";

/** "Constant in artifact size": the largest prompt may grow at most this much from the smallest history to the largest. */
const MAX_GROWTH = 1.1;

const largestPrompt = (c: PromptCapture) => Math.max(0, ...Object.values(c.promptTokens));

/** prompt_budget: estimated prompt tokens per agent for each history size, next to the raw artifact's tokens. */
export async function benchPromptBudget(profile: BenchProfile): Promise<BenchResult> {
  const { runs: captures, failure } = await measureSizes(profile.historySizes, (points) =>
    runWorker<PromptCapture>(join(ROOT, "bench/workers/prompt-capture.ts"), [String(points)], {
      cwd: ROOT,
      env: childEnv({}),
      logFile: join(OUT_DIR, `prompt-${points}.log`),
      timeoutMs: 180_000,
    }),
  );
  if (captures.length < 2) throw new Error(failure ?? "fewer than two history sizes measured");
  const first = captures[0]!;
  const last = captures.at(-1)!;
  if (Object.keys(last.promptTokens).length === 0) throw new Error("the fake model received no prompt: the LLM layer is not wired to SERVICE_LLM_* settings");
  const growth = largestPrompt(last) / largestPrompt(first);
  const agents = [...new Set(captures.flatMap((c) => Object.keys(c.promptTokens)))].sort();
  const rows: BenchRow[] = captures.flatMap((c) =>
    agents.map((agent) => ({
      metric: `${sizeLabel(c.points)} points: ${agent}`,
      value: c.promptTokens[agent] ?? null,
      unit: "tokens",
      baseline: c.rawTokens,
      ratio: ratioOf(c.promptTokens[agent], c.rawTokens),
    })),
  );
  rows.push(
    { metric: `largest prompt, ${sizeLabel(last.points)} ÷ ${sizeLabel(first.points)} points`, value: growth, unit: "", target: `≤ ${MAX_GROWTH}`, met: growth <= MAX_GROWTH },
    { metric: `largest prompt at ${sizeLabel(last.points)} points`, value: largestPrompt(last), unit: "tokens", target: `≤ ${PROMPT_TOKEN_BUDGET} (PROMPT_TOKEN_BUDGET)`, met: largestPrompt(last) <= PROMPT_TOKEN_BUDGET },
  );
  const notes = [
    ...(failure ? [`Not measured: ${failure}.`] : []),
    ...captures.filter((c) => Object.keys(c.errors).length > 0).map((c) => `Agent errors at ${sizeLabel(c.points)}: ${JSON.stringify(c.errors)}.`),
  ];
  return {
    name: "prompt_budget",
    value: largestPrompt(last),
    unit: "tokens",
    baseline: last.rawTokens,
    ratio: ratioOf(largestPrompt(last), last.rawTokens),
    target: `constant in artifact size (largest prompt grows ≤ ${MAX_GROWTH}× from ${sizeLabel(first.points)} to ${sizeLabel(last.points)} points) and within PROMPT_TOKEN_BUDGET`,
    met: failure === null && rows.every((r) => r.met !== false),
    description: `largest estimated prompt (system + user message, llm/prompt-kit estimateTokens) any agent sent for a ${sizeLabel(last.points)}-step × 6-metric history, as received by the project's fake model`,
    baselineDescription: "the training artifact as raw JSON, estimated the same way (the naive prompt)",
    ...(notes.length ? { note: notes.join(" ") } : {}),
    rows,
    detail: { captures },
  };
}
