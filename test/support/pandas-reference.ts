import { expect } from "vitest";

/**
 * What scripts/pandas/dataset_reference.py writes: pandas' (and scipy's) statistics of a data file, the reference
 * for the client's dataset statistics in the unit tests (committed expected.json) and the pandas tier.
 */
export interface PandasColumn {
  count: number;
  missing: number;
  unique: number;
  top: string | number | boolean | null;
  top_frequency: number | null;
  mean?: number;
  std?: number;
  min?: number;
  max?: number;
  p25?: number;
  p50?: number;
  p75?: number;
  /** [pandas quantile at q − ε, at q + ε] per quartile, when asked for with --rank-error ε. */
  quartile_bounds?: Array<[number, number]>;
}

export interface PandasReference {
  splits: Record<string, number>;
  columns: Record<string, PandasColumn>;
  class_distribution?: Record<string, Record<string, number>>;
  duplicates: { count: number; fraction: number };
  train_test_overlap?: { count: number; fraction: number };
  drift?: Record<string, Record<string, number | string>>;
}

/** Agreement to 1e-9 relative (absolute near zero), issue 14's bar for every exact number. */
export function expectClose(actual: number | null | undefined, want: number, what: string): void {
  expect(actual, what).toBeTypeOf("number");
  expect(Math.abs((actual as number) - want), `${what}: ${actual} vs pandas ${want}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
}

/** pandas' top keeps the value's type; ours is text (JSON keys): numbers as numbers, booleans case-blind. */
export function sameTop(actual: string | null, want: PandasColumn["top"]): boolean {
  if (typeof want === "number") return actual !== null && Number(actual) === want;
  if (typeof want === "boolean") return actual?.toLowerCase() === String(want);
  return actual === want;
}
