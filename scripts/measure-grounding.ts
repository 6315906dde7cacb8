/**
 * How well the grounding pass separates invented numbers from true ones (docs/llm.md): every sample request is
 * analysed with a fake model that states numbers it was given, a seeded share k of them changed (k = 1, 10,
 * 50 %), one number per sentence, in English, French or Spanish number formats, each sentence naming the item
 * the number belongs to (a finding, series, tensor, check); then each sentence is looked for in the response.
 * Usage: npx tsx scripts/measure-grounding.ts [--json] [--misses] [--unnamed-items] (--misses also prints every
 * changed number kept and every true number removed, to see what the pass misses; --unnamed-items writes the
 * sentences without the item, as measured before items were named)
 */
import { readdirSync } from "node:fs";
import { type LlmHarness, SAMPLES, sampleRequest, startLlmHarness } from "../test/graph/llm-harness.js";
import { perturbingModel, type StatedSentence } from "../test/support/perturbing-model.js";

const SHARES = [0.01, 0.1, 0.5];
const LANGUAGES = ["en", "fr", "es"];
const SEED = 20;
const NAME_ITEMS = !process.argv.includes("--unnamed-items");

interface Row {
  k: number;
  analyses: number;
  perturbed: number;
  perturbed_removed: number;
  /** Perturbed values that were not integers, and how many of them were removed. */
  perturbed_fractional: number;
  perturbed_fractional_removed: number;
  /** Changed numbers that equal another value of the field they are stated for, and how many were removed. */
  perturbed_colliding: number;
  perturbed_colliding_removed: number;
  correct: number;
  correct_removed: number;
  errors: number;
}

const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".json") && f !== "bad-request.json");
const rows: Row[] = [];
const misses: string[] = [];
for (const [ki, k] of SHARES.entries()) {
  const row: Row = { k, analyses: 0, perturbed: 0, perturbed_removed: 0, perturbed_fractional: 0, perturbed_fractional_removed: 0, perturbed_colliding: 0, perturbed_colliding_removed: 0, correct: 0, correct_removed: 0, errors: 0 };
  for (const [si, sample] of samples.entries()) {
    for (const [li, language] of LANGUAGES.entries()) {
      const model = perturbingModel(k, SEED * 1000 + ki * 100 + si * 10 + li, undefined, NAME_ITEMS);
      const harness: LlmHarness = await startLlmHarness(model.script, { llm: { cache: false, trackUsage: false } });
      try {
        const response = await harness.analyze(sampleRequest(sample, language));
        const text = JSON.stringify(response);
        row.analyses++;
        row.errors += Object.keys(response.error_messages).length;
        const kept = (s: StatedSentence) => text.includes(JSON.stringify(s.sentence).slice(1, -1));
        for (const s of model.written) {
          if (s.perturbed) {
            row.perturbed++;
            if (!kept(s)) row.perturbed_removed++;
            else misses.push(`k=${k} ${sample} ${language} kept a changed number (given ${s.given}${s.collides ? ", equal to another value of its field" : ""}): ${s.sentence}`);
            if (!s.integer) {
              row.perturbed_fractional++;
              if (!kept(s)) row.perturbed_fractional_removed++;
            }
            if (s.collides) {
              row.perturbed_colliding++;
              if (!kept(s)) row.perturbed_colliding_removed++;
            }
          } else {
            row.correct++;
            if (!kept(s)) {
              row.correct_removed++;
              misses.push(`k=${k} ${sample} ${language} removed a true number: ${s.sentence}`);
            }
          }
        }
      } finally {
        await harness.close();
      }
    }
  }
  rows.push(row);
}

if (process.argv.includes("--misses")) process.stderr.write(`${misses.join("\n")}\n`);
const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(2)} %`);
if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
else {
  process.stdout.write(`${samples.length} sample requests × ${LANGUAGES.join("/")} , seed ${SEED}, ${NAME_ITEMS ? "items named" : "items not named"}\n`);
  process.stdout.write(
    "| k | analyses | changed numbers | removed | of them non-integers | removed | equal to another value of their field (in the item named) | removed | other changed numbers | removed | true numbers | wrongly removed | agent errors |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.k * 100} % | ${r.analyses} | ${r.perturbed} | ${pct(r.perturbed_removed, r.perturbed)} | ${r.perturbed_fractional} | ${pct(r.perturbed_fractional_removed, r.perturbed_fractional)} | ${r.perturbed_colliding} | ${pct(r.perturbed_colliding_removed, r.perturbed_colliding)} | ${r.perturbed - r.perturbed_colliding} | ${pct(r.perturbed_removed - r.perturbed_colliding_removed, r.perturbed - r.perturbed_colliding)} | ${r.correct} | ${pct(r.correct_removed, r.correct)} | ${r.errors} |\n`,
    );
  }
}
