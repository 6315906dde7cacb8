import { readdirSync } from "node:fs";
import { collectEvidence } from "../../llm/grounding/evidence.js";
import { readLanguage } from "../../llm/grounding/language.js";
import { GroundingTally } from "../../llm/grounding/report.js";
import { SAMPLES, sampleRequest, startLlmHarness } from "../../test/graph/llm-harness.js";
import { perturbingModel } from "../../test/support/perturbing-model.js";
import { groundRecorded, languageTextsOf, type RecordedCall, recordedCall } from "../../test/support/recorded-answer.js";
import { trainingHistoryRequest } from "../data/training-history.js";
import type { BenchProfile } from "../lib/options.js";
import type { BenchResult, BenchRow } from "../lib/result.js";
import { sizeLabel } from "../lib/sizes.js";
import { median, round } from "../lib/stats.js";

/** The pass runs only after a model answered: it may cost at most this share of the answer time it checks. */
const TARGET_SHARE = 0.01;
const LANGUAGE = { code: "fr", name: "French" };
/** Untimed passes over every request's answers before any is timed, so the first request timed is compiled too. */
const WARM_UP_PASSES = 3;

/** The grounding pass over one recorded answer, as the port runs it: evidence, language, claims. */
function groundOnce(call: RecordedCall): void {
  const evidence = collectEvidence(call.shown);
  readLanguage(languageTextsOf(call), LANGUAGE);
  groundRecorded(call, evidence, new GroundingTally({ expected: "fr", detected: "fr", outcome: "ok" }));
}

/** CPU time (user + system, ms) of `fn`: on a shared machine wall time swings far more than the work. */
function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * grounding: the grounding pass's CPU time per model answer (evidence, language, every sentence of the answer),
 * next to the time the bench's fake model takes to answer (profile.llmDelayMs, 300 ms; a real model takes
 * seconds). Answers recorded from the perturbing fake model (12 quoted numbers per answer, 10 % changed) for
 * every sample request and the largest benchmark history; the pass is bounded by the prompts, which stay bounded
 * whatever the artifact size.
 */
export async function benchGrounding(profile: BenchProfile): Promise<BenchResult> {
  const repeats = profile.mode === "full" ? 21 : 5;
  const answerMs = profile.llmDelayMs;
  const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".json") && f !== "bad-request.json");
  const largest = Math.max(...profile.historySizes);
  const requests = [
    ...samples.map((sample) => ({ label: sample, body: sampleRequest(sample, LANGUAGE.code) })),
    { label: `training history of ${sizeLabel(largest)} points × 6 metrics`, body: { ...trainingHistoryRequest(largest), language: LANGUAGE.code } },
  ];
  const recorded: Array<{ label: string; answers: RecordedCall[] }> = [];
  for (const { label, body } of requests) {
    const model = perturbingModel(0.1, 20);
    const answers: RecordedCall[] = [];
    const llm = await startLlmHarness((chat) => {
      const reply = model.script(chat);
      answers.push(recordedCall(chat, reply.content!));
      return reply;
    }, { llm: { cache: false, trackUsage: false } });
    await llm.analyze(body);
    await llm.close();
    recorded.push({ label, answers });
  }
  for (let i = 0; i < WARM_UP_PASSES; i++) for (const { answers } of recorded) answers.forEach(groundOnce);
  const rows: BenchRow[] = recorded.map(({ label, answers }) => {
    const perAnswer = median(Array.from({ length: repeats }, () => cpuMs(() => answers.forEach(groundOnce)))) / answers.length;
    const share = perAnswer / answerMs;
    return { metric: `${label} (${answers.length} answers)`, value: round(perAnswer), unit: "ms", baseline: answerMs, ratio: share, target: `≤ ${TARGET_SHARE * 100} %`, met: share <= TARGET_SHARE };
  });
  const worst = rows.reduce((a, b) => ((b.ratio ?? 0) > (a.ratio ?? 0) ? b : a));
  return {
    name: "grounding",
    value: worst.value,
    unit: "ms",
    baseline: answerMs,
    ratio: worst.ratio,
    target: `≤ ${TARGET_SHARE * 100} % of the fake model's answer time, for every request`,
    met: rows.every((r) => r.met),
    headline: `${round(worst.ratio! * 100)} % of one answer's time at worst, ${worst.metric}`,
    description: `grounding pass CPU time per model answer (evidence, language, every sentence; median of ${repeats} passes over a request's answers) for the request where it weighs most (${worst.metric}); rows: every sample request and the largest benchmark history`,
    baselineDescription: `the fake model's answer time in the bench (${answerMs} ms; real models take seconds)`,
    rows,
    detail: { repeats, samples: samples.length, history_points: largest },
  };
}
