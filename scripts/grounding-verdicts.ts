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
import { collectEvidence } from "../llm/grounding/evidence.js";
import { readLanguage } from "../llm/grounding/language.js";
import { GroundingTally } from "../llm/grounding/report.js";
import { SAMPLES, sampleRequest, startLlmHarness } from "../test/graph/llm-harness.js";
import type { ChatRequestBody } from "../test/support/fake-openai.js";
import { perturbingModel } from "../test/support/perturbing-model.js";
import { groundRecorded, type RecordedCall, recordedCall, textsOf } from "../test/support/recorded-answer.js";

const SHARES = [0.01, 0.1, 0.5];
const LANGUAGES: Record<string, string> = { en: "English", fr: "French", es: "Spanish", de: "German", ja: "Japanese" };
const SEED = 20;

/** A recorded call and the analysis it was made in. */
interface SampleCall extends RecordedCall {
  sample: string;
  k: number;
  language: string;
}

async function record(path: string): Promise<void> {
  const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".json") && f !== "bad-request.json");
  const calls: SampleCall[] = [];
  for (const k of SHARES) {
    for (const language of Object.keys(LANGUAGES)) {
      for (const [si, sample] of samples.entries()) {
        const model = perturbingModel(k, SEED + si);
        const llm = await startLlmHarness(
          (chat: ChatRequestBody) => {
            const reply = model.script(chat);
            if (reply.content) calls.push({ sample, k, language, ...recordedCall(chat, reply.content) });
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

function check(from: string, to: string): void {
  const calls = JSON.parse(readFileSync(from, "utf8")) as SampleCall[];
  const out: unknown[] = [];
  for (const call of calls) {
    for (const [code, name] of Object.entries(LANGUAGES)) {
      const evidence = collectEvidence(call.shown);
      const language = readLanguage(textsOf(call.answer), { code, name });
      const tally = new GroundingTally({ expected: code, detected: language.detected, outcome: "ok" });
      const grounded = groundRecorded(call, evidence, tally);
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
