import { z } from "zod";

/** A figure next to its baseline; `ratio` is always value ÷ baseline. */
const MeasureSchema = z.object({
  /** null when the measure could not be taken on this machine (see the result's `note`). */
  value: z.number().nullable(),
  unit: z.string(),
  baseline: z.number().nullable().optional(),
  ratio: z.number().nullable().optional(),
  target: z.string().optional(),
  met: z.boolean().optional(),
});

/** One sub-measure of a result (e.g. p99 at concurrency 10), in bench/results.json. */
export const BenchRowSchema = MeasureSchema.extend({
  metric: z.string(),
  /** Also a row of BENCHMARKS.md's table, under its result: a suite declares which of its rows a reader needs. */
  inTable: z.boolean().optional(),
});
export type BenchRow = z.infer<typeof BenchRowSchema>;

/** One named result of `npm run bench`; the names stay fixed so results compare over time. */
export const BenchResultSchema = MeasureSchema.extend({
  name: z.string(),
  /** What the value and the baseline are, in a sentence. */
  description: z.string(),
  baselineDescription: z.string().optional(),
  note: z.string().optional(),
  /** The one short note of its row in BENCHMARKS.md's table. */
  headline: z.string().max(160).optional(),
  /** When and on what this result was measured (set by bench/run.ts; results of a subset run keep the others'). */
  measured: z.object({ date: z.string(), commit: z.string().nullable(), dirty: z.boolean(), load: z.number() }).optional(),
  rows: z.array(BenchRowSchema).optional(),
  /** Raw samples and settings behind the figures. */
  detail: z.record(z.string(), z.unknown()).optional(),
});
export type BenchResult = z.infer<typeof BenchResultSchema>;

/** The ratio value / baseline, or null when either is missing or the baseline is zero. */
export function ratioOf(value: number | null | undefined, baseline: number | null | undefined): number | null {
  if (value == null || baseline == null || baseline === 0) return null;
  return value / baseline;
}

/** A result that could not be measured: kept in the table with the reason, never silently dropped. */
export function unavailable(name: string, unit: string, description: string, note: string): BenchResult {
  return { name, value: null, unit, description, note };
}
