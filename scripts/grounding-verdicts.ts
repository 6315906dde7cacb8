/**
 * The grounding pass's verdicts over a recorded set of model answers, to show a change to `llm/grounding/` keeps
 * every verdict (docs/llm.md). `record` analyses every sample request with the perturbing fake model (k = 1, 10,
 * 50 %; asked in en, fr, es, de, ja; the model answers in the number style of en, fr or es, English for the
 * others) and writes each call's schema, the values its prompt showed and its parsed answer; `check` runs the
 * pass of this tree over each recorded answer against five asked languages and writes the grounded answers,
 * tallies and language readings, one entry per answer and language (4,065 for the 813 calls recorded on
 * 2026-11-25). The draws of the fake model follow the order in which the parallel agents call it, so a
 * recording is made once and checked by both trees: `cmp` of the two outputs says whether a verdict changed.
 * Usage:
 *   npx tsx scripts/grounding-verdicts.ts record .cache/grounding-answers.json
 *   npx tsx scripts/grounding-verdicts.ts check .cache/grounding-answers.json .cache/verdicts-after.json
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { groundAdvice, groundReview, groundSummary } from "../llm/grounding/answers.js";
import { collectEvidence } from "../llm/grounding/evidence.js";
import { readLanguage } from "../llm/grounding/language.js";
import { GroundingTally } from "../llm/grounding/report.js";
import { TextValues } from "../llm/grounding/text-values.js";
import type { AdviceOutput, AgentReviewOutput } from "../llm/schemas.js";
import { SAMPLES, sampleRequest, startLlmHarness } from "../test/graph/llm-harness.js";
import type { ChatRequestBody } from "../test/support/fake-openai.js";
import { perturbingModel } from "../test/support/perturbing-model.js";

const SHARES = [0.01, 0.1, 0.5];
const LANGUAGES: Record<string, string> = { en: "English", fr: "French", es: "Spanish", de: "German", ja: "Japanese" };
const SEED = 20;

interface RecordedCall {
  sample: string;
  k: number;
  language: string;
  schema: string | undefined;
  shown: unknown;
  answer: unknown;
}

async function record(path: string): Promise<void> {
  const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".json") && f !== "bad-request.json");
  const calls: RecordedCall[] = [];
  for (const k of SHARES) {
    for (const language of Object.keys(LANGUAGES)) {
      for (const [si, sample] of samples.entries()) {
        const model = perturbingModel(k, SEED + si);
        const llm = await startLlmHarness(
          (chat: ChatRequestBody) => {
            const reply = model.script(chat);
            const user = (chat.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;
            if (reply.content) calls.push({ sample, k, language, schema: chat.response_format?.json_schema?.name, shown: JSON.parse(user), answer: JSON.parse(reply.content) });
            return reply;
          },
          { llm: { cache: false, trackUsage: false } },
        );
        await llm.analyze(sampleRequest(sample, language));
        await llm.close();
      }
    }
  }
  writeFileSync(path, JSON.stringify(calls));
  process.stdout.write(`${calls.length} model calls recorded in ${path}\n`);
}

/** Every string of a model answer: what the language check reads. */
const textsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(textsOf) : [];

function check(from: string, to: string): void {
  const calls = JSON.parse(readFileSync(from, "utf8")) as RecordedCall[];
  const out: unknown[] = [];
  for (const call of calls) {
    for (const [code, name] of Object.entries(LANGUAGES)) {
      const evidence = collectEvidence(call.shown, new TextValues());
      const language = readLanguage(textsOf(call.answer), { code, name });
      const tally = new GroundingTally({ expected: code, detected: language.detected, outcome: "ok" });
      const answer = structuredClone(call.answer);
      let grounded: unknown;
      if (call.schema === "agent_review") grounded = groundReview(answer as AgentReviewOutput, evidence, tally);
      else if (call.schema === "cross_artifact_summary") grounded = groundSummary((answer as { summary: string }).summary, evidence, tally);
      else if (call.schema === "optimization_advice") grounded = groundAdvice(answer as AdviceOutput, 100, evidence, tally);
      else throw new Error(`unknown schema ${call.schema}`);
      out.push({ language, grounded, report: tally.report() });
    }
  }
  writeFileSync(to, JSON.stringify(out));
  process.stdout.write(`${out.length} answer checks written to ${to}\n`);
}

const [command, ...paths] = process.argv.slice(2);
if (command === "record" && paths.length === 1) await record(paths[0]!);
else if (command === "check" && paths.length === 2) check(paths[0]!, paths[1]!);
else {
  process.stderr.write("usage: grounding-verdicts.ts record <answers.json> | check <answers.json> <verdicts.json>\n");
  process.exitCode = 2;
}
