import { readdirSync } from "node:fs";
import { groundAdvice, groundReview, groundSummary } from "../../llm/grounding/answers.js";
import { collectEvidence, shownInput } from "../../llm/grounding/evidence.js";
import { readLanguage } from "../../llm/grounding/language.js";
import { GroundingTally } from "../../llm/grounding/report.js";
import type { AdviceOutput, AgentReviewOutput } from "../../llm/schemas.js";
import { SAMPLES, sampleRequest, startLlmHarness } from "../../test/graph/llm-harness.js";
import type { ChatRequestBody } from "../../test/support/fake-openai.js";
import { perturbingModel } from "../../test/support/perturbing-model.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { median, round } from "../lib/stats.js";

/** The grounding pass may cost at most this share of an offline (deterministic) analysis. */
const TARGET_SHARE = 0.02;
const LANGUAGE = { code: "fr", name: "French" };

/** Every string of a model answer: what the language check reads. */
const textsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(textsOf) : [];

/** The grounding pass over one recorded answer, as the port runs it: evidence, language, claims. */
function groundOnce(body: ChatRequestBody, content: string): void {
  const messages = body.messages as Array<{ role: "system" | "user"; content: string }>;
  const answer = JSON.parse(content) as unknown;
  const evidence = collectEvidence(shownInput(messages));
  readLanguage(textsOf(answer), LANGUAGE);
  const tally = new GroundingTally({ expected: "fr", detected: "fr", outcome: "ok" });
  switch (body.response_format?.json_schema?.name) {
    case "agent_review":
      groundReview(answer as AgentReviewOutput, evidence, tally);
      break;
    case "cross_artifact_summary":
      groundSummary((answer as { summary: string }).summary, evidence, tally);
      break;
    case "optimization_advice":
      groundAdvice(answer as AdviceOutput, 100, evidence, tally);
      break;
    default:
      throw new Error(`unknown schema ${body.response_format?.json_schema?.name}`);
  }
}

/** Times `fn` `n` times in a row, in ms. */
async function repeat(n: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * grounding: the grounding pass's time per analysis (every agent's answer of a sample request, answered by a fake
 * model quoting 12 numbers per answer, 10 % of them changed), next to the same request's offline analysis time.
 */
export async function benchGrounding(profile: BenchProfile): Promise<BenchResult> {
  const repeats = profile.mode === "full" ? 10 : 3;
  const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".json") && f !== "bad-request.json");
  const offline = await startLlmHarness(null);
  const rows: BenchRow[] = [];
  const shares: number[] = [];
  for (const sample of samples) {
    const request = sampleRequest(sample, LANGUAGE.code);
    await offline.analyze(request);
    const offlineMs = median(await repeat(repeats, () => offline.analyze(request)));
    const model = perturbingModel(0.1, 20);
    const answers: Array<{ body: ChatRequestBody; content: string }> = [];
    const llm = await startLlmHarness((body) => {
      const reply = model.script(body);
      answers.push({ body, content: reply.content! });
      return reply;
    }, { llm: { cache: false, trackUsage: false } });
    await llm.analyze(request);
    await llm.close();
    const groundingMs = median(await repeat(repeats, () => answers.forEach((a) => groundOnce(a.body, a.content))));
    const share = groundingMs / offlineMs;
    shares.push(share);
    rows.push({ metric: `${sample} (${answers.length} answers)`, value: round(groundingMs), unit: "ms", baseline: round(offlineMs), ratio: share, target: `< ${TARGET_SHARE * 100} %`, met: share < TARGET_SHARE });
  }
  await offline.close();
  const worst = Math.max(...shares);
  const worstRow = rows[shares.indexOf(worst)]!;
  return {
    name: "grounding",
    value: worstRow.value,
    unit: "ms",
    baseline: worstRow.baseline,
    ratio: ratioOf(worstRow.value, worstRow.baseline),
    target: `< ${TARGET_SHARE * 100} % of the offline analysis time, for every sample request`,
    met: rows.every((r) => r.met),
    description: `grounding pass time per analysis (evidence index, language check, every sentence of every agent's answer; median of ${repeats}) for the sample request where it weighs most (${worstRow.metric})`,
    baselineDescription: "the same request analysed offline (no LLM), median of the same number of runs",
    rows,
    detail: { repeats, samples: samples.length },
  };
}
