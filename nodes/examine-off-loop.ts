import type { ArtifactKind } from "../artifacts/context.js";
import { packNumberColumns } from "../workers/number-columns.js";
import { runTask } from "../workers/pool.js";
import type { AnalyzerRun, AnalyzerSpec } from "./analyzer-spec.js";
import { type Examination, examinePayload } from "./examine.js";

/**
 * Analyzers whose parser reads nothing but its payload and ArtifactSource, so their whole examination can run on
 * a worker thread (workers/examine-task.ts holds their specs). The checkpoint analyzer reads files, follows the
 * request's deadline and reports progress while it scans: it stays on the event loop.
 */
export const OFF_LOOP_KINDS = ["training", "dataset", "checks"] as const;
export type OffLoopKind = (typeof OFF_LOOP_KINDS)[number];

const isOffLoop = (kind: ArtifactKind): kind is OffLoopKind => (OFF_LOOP_KINDS as readonly ArtifactKind[]).includes(kind);

/**
 * Payloads from this size on (estimated bytes of their JSON) are examined on a worker thread; below it the hop
 * costs more than it saves. Measured on the benchmark machine: see docs/decisions.md, "Analyses off the event loop".
 */
export const WORKER_EXAMINE_MIN_BYTES = 256 * 1024;

/**
 * The deterministic stage of one analyzer (parse → detect → facts → digest → describe), off the event loop when
 * the artifact is large: its long number arrays travel as columns, transferred, and the payload itself is left
 * as it was. The run's signal (the agent's time-out, the request's end) ends a task that is still running.
 * `minBytes` chooses the path (tests take both).
 */
export async function examineArtifact<P, F>(
  spec: AnalyzerSpec<P, F>,
  run: AnalyzerRun,
  withDigest: boolean,
  minBytes = WORKER_EXAMINE_MIN_BYTES,
): Promise<Examination<F>> {
  const { field, payload } = run.input.artifact;
  if (isOffLoop(spec.kind)) {
    const { value, columns, transfer, size } = packNumberColumns(payload);
    if (size >= minBytes) {
      const source = { input: { artifact: { field }, datasetName: run.input.datasetName } };
      const task = { kind: spec.kind, source, packed: { value, columns }, withDigest };
      return (await runTask("examine", task, { transfer, signal: run.signal })) as Examination<F>;
    }
  }
  return examinePayload(spec, payload, run, withDigest);
}
