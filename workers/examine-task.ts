import type { ArtifactSource, AnalyzerSpec } from "../nodes/analyzer-spec.js";
import { checksAnalyzer } from "../nodes/checks/node.js";
import { datasetAnalyzer } from "../nodes/dataset/node.js";
import { type Examination, examinePayload } from "../nodes/examine.js";
import type { OffLoopKind } from "../nodes/examine-off-loop.js";
import { trainingAnalyzer } from "../nodes/training/node.js";
import { readsAsColumn } from "../nodes/training/parse/index.js";
import { type PackedValue, unpackNumberColumns } from "./number-columns.js";
import type { TaskOutput } from "./pool.js";

/** The analyzers a worker can examine for, by kind; each parser takes an ArtifactSource, nothing of the run. */
const OFF_LOOP_ANALYZERS = {
  training: trainingAnalyzer,
  dataset: datasetAnalyzer,
  checks: checksAnalyzer,
} satisfies Record<OffLoopKind, AnalyzerSpec<unknown, unknown, ArtifactSource>>;

/**
 * Where a kind's parser reads a number array as the column it came as (Float64Column), so the worker does not
 * rebuild it as a JS array; the others get arrays.
 */
const COLUMN_READERS: Partial<Record<OffLoopKind, (payload: Record<string, unknown>, path: ReadonlyArray<string | number>) => boolean>> = {
  training: readsAsColumn,
};

export interface ExamineTask {
  kind: OffLoopKind;
  source: ArtifactSource;
  /** The artifact's payload, its long number arrays as columns (workers/number-columns.ts). */
  packed: PackedValue;
  withDigest: boolean;
}

/** Worker task: an artifact's payload → its examination (nodes/examine.ts), plain data. */
export async function examineTask(task: ExamineTask): Promise<TaskOutput<Examination<unknown>>> {
  const reads = COLUMN_READERS[task.kind];
  const keepColumn = reads && ((path: ReadonlyArray<string | number>) => reads(task.packed.value as Record<string, unknown>, path));
  const payload = (await unpackNumberColumns(task.packed, keepColumn)) as Record<string, unknown>;
  const spec: AnalyzerSpec<unknown, unknown, ArtifactSource> = OFF_LOOP_ANALYZERS[task.kind];
  return { value: await examinePayload(spec, payload, task.source, task.withDigest), transfer: [] };
}
