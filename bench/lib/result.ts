import { z } from "zod";

/** One sub-measure shown under a result in BENCHMARKS.md (e.g. p99 at concurrency 10). */
export const BenchRowSchema = z.object({
  metric: z.string(),
  value: z.number().nullable(),
  unit: z.string(),
  baseline: z.number().nullable().optional(),
  ratio: z.number().nullable().optional(),
  target: z.string().optional(),
  met: z.boolean().optional(),
});
export type BenchRow = z.infer<typeof BenchRowSchema>;

/** One named result of `npm run bench`; the names stay fixed so results compare over time. */
export const BenchResultSchema = z.object({
  name: z.string(),
  /** null when the measure could not be taken on this machine (see `note`). */
  value: z.number().nullable(),
  unit: z.string(),
  baseline: z.number().nullable().optional(),
  ratio: z.number().nullable().optional(),
  target: z.string().optional(),
  met: z.boolean().optional(),
  /** What the value and the baseline are, in a sentence. */
  description: z.string(),
  baselineDescription: z.string().optional(),
  note: z.string().optional(),
  rows: z.array(BenchRowSchema).optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
});
export type BenchResult = z.infer<typeof BenchResultSchema>;

/** The ratio value / baseline, or null when either is missing or the baseline is zero. */
export function ratioOf(value: number | null | undefined, baseline: number | null | undefined): number | null {
  if (value == null || baseline == null || baseline === 0) return null;
  return value / baseline;
}

/** A result that could not be measured: kept in the table with the reason, never silently dropped. */
export function unavailable(name: string, unit: string, description: string, note: string, target?: string): BenchResult {
  return { name, value: null, unit, description, note, ...(target ? { target, met: false } : {}) };
}
