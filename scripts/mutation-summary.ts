// Sums StrykerJS JSON reports (mutation-testing-report schema) into the score per file and in all, the way
// docs/mutation.md reports them: killed ÷ (killed + survived + not covered), timeouts counted as killed, and the
// same without the mutants that only change a text (StringLiteral). A file in several reports counts from the
// last one named, mutant by mutant (by place, mutator and replacement), so scoped runs made one after another, down to
// line-scoped re-runs (`--mutate "file.ts:13-20"`), add up to one measurement; a report of a file whose source has
// changed since the earlier ones replaces their mutants of it (their places are of another text).
// Run: npx tsx scripts/mutation-summary.ts <report.json> [...]
import { readFileSync } from "node:fs";
import { z } from "zod";

const ReportSchema = z.object({
  files: z.record(
    z.string(),
    z.object({
      source: z.string(),
      mutants: z.array(
        z.object({
          status: z.string(),
          mutatorName: z.string(),
          replacement: z.string().optional(),
          location: z.object({ start: z.object({ line: z.number(), column: z.number() }), end: z.object({ line: z.number(), column: z.number() }) }),
        }),
      ),
    }),
  ),
});
type Mutant = z.infer<typeof ReportSchema>["files"][string]["mutants"][number];

const place = (m: Mutant) => `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ""}`;
const byFile = new Map<string, { source: string; mutants: Map<string, Mutant> }>();
for (const path of process.argv.slice(2)) {
  for (const [file, { source, mutants }] of Object.entries(ReportSchema.parse(JSON.parse(readFileSync(path, "utf8"))).files)) {
    const earlier = byFile.get(file);
    const known = earlier?.source === source ? earlier.mutants : new Map<string, Mutant>();
    for (const m of mutants) known.set(place(m), m);
    byFile.set(file, { source, mutants: known });
  }
}

function score(mutants: readonly Mutant[]): { counted: number; killed: number; text: string } {
  const counted = mutants.filter((m) => ["Killed", "Timeout", "Survived", "NoCoverage"].includes(m.status));
  const killed = counted.filter((m) => m.status === "Killed" || m.status === "Timeout").length;
  const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)} %` : "–");
  const prose = counted.filter((m) => m.mutatorName !== "StringLiteral");
  const proseKilled = prose.filter((m) => m.status === "Killed" || m.status === "Timeout").length;
  return { counted: counted.length, killed, text: `${pct(killed, counted.length)} (${killed}/${counted.length}; ${pct(proseKilled, prose.length)} without text)` };
}

const rows = [...byFile.entries()].map(([file, { mutants }]) => [file, [...mutants.values()]] as const).sort(([a], [b]) => a.localeCompare(b));
for (const [file, mutants] of rows) console.log(`${file}  ${score(mutants).text}`);
console.log(`all ${rows.length} files  ${score(rows.flatMap(([, m]) => m)).text}`);
