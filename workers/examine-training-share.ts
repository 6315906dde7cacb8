import type { Finding } from "../domain/result.js";
import type { ArtifactSource } from "../nodes/analyzer.js";
import { detectorFindings, TRAINING_DETECTOR_COUNT } from "../nodes/training/detect.js";
import type { TrainingFacts } from "../nodes/training/facts.js";
import type { TrainingRun } from "../nodes/training/model.js";
import { trainingAnalyzer } from "../nodes/training/node.js";
import { readsAsColumn } from "../nodes/training/parse/index.js";
import { type PackedValue, unpackNumberColumns } from "./number-columns.js";
import type { TaskOutput } from "./tasks.js";

export interface TrainingShareTask {
  source: ArtifactSource;
  /** The training payload, its long number arrays as columns in shared memory: every thread reads the same. */
  packed: PackedValue;
  /**
   * The next piece of work, shared by the threads: 0 … count − 1 are the detectors (nodes/training/detect.ts),
   * count the facts and description. Each thread takes pieces until none is left, so a slow detector does not
   * leave the other thread idle and a thread that starts late takes what is left, or nothing.
   */
  next: Int32Array;
}

/** What one thread examined: the findings of the detectors it took, by detector index, and the facts if it took them. */
export type TrainingShare =
  | { found: Array<[index: number, findings: Finding[]]>; facts: { facts: TrainingFacts; analyzed: string[] } | null }
  | { unreadable: string };

/** Worker task: a share of a training history's examination (nodes/training/examine-shares.ts merges them). */
export async function examineTrainingShareTask(task: TrainingShareTask): Promise<TaskOutput<TrainingShare>> {
  const payload = (await unpackNumberColumns(task.packed, (path) => readsAsColumn(task.packed.value as Record<string, unknown>, path))) as Record<string, unknown>;
  let run: TrainingRun;
  try {
    run = await trainingAnalyzer.parse(payload, task.source);
  } catch (err) {
    return { value: { unreadable: err instanceof Error ? err.message : String(err) }, transfer: [] };
  }
  const found: Array<[number, Finding[]]> = [];
  let facts: { facts: TrainingFacts; analyzed: string[] } | null = null;
  for (let piece = Atomics.add(task.next, 0, 1); piece <= TRAINING_DETECTOR_COUNT; piece = Atomics.add(task.next, 0, 1)) {
    if (piece < TRAINING_DETECTOR_COUNT) found.push([piece, detectorFindings(run, piece)]);
    // The training facts read the run only, never the findings (nodes/training/node.ts): they need no merge.
    else facts = { facts: trainingAnalyzer.facts(run, []), analyzed: trainingAnalyzer.describe(run) };
  }
  return { value: { found, facts }, transfer: [] };
}
