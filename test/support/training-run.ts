import { readFileSync } from "node:fs";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import type { TrainingRun } from "../../nodes/training/model.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";

/** Points as [step, value] pairs, or plain values indexed from step 0. */
export type Points = ReadonlyArray<number | readonly [number, number]>;

/** A parsed run from metric histories given as points, with optional params and log lines. */
export function trainingRun(metrics: Record<string, Points>, extra: { params?: Record<string, unknown>; logs?: string[] } = {}): TrainingRun {
  const history = Object.fromEntries(
    Object.entries(metrics).map(([name, points]) => [name, points.map((p, i) => (typeof p === "number" ? { step: i, value: p } : { step: p[0], value: p[1] }))]),
  );
  return parseTrainingArtifact({ metrics: history, params: extra.params ?? {}, logs: extra.logs ?? [] });
}

/** Values of f(i) for i = 0 … n − 1. */
export function series(n: number, f: (i: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

/** The `training_artifacts` of a shared sample request (tolerant of its bare NaN). */
export function sampleTrainingArtifact(name: string): Record<string, unknown> {
  const body = parseTolerantJson(readFileSync(new URL(`../fixtures/samples/${name}.json`, import.meta.url), "utf8")) as Record<string, unknown>;
  return body.training_artifacts as Record<string, unknown>;
}

/** A fixture file of test/fixtures/training. */
export function trainingFixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/training/${name}`, import.meta.url));
}
