import type { ArtifactInput, ArtifactKind } from "../artifacts/context.js";
import type { AgentName, Finding } from "../domain/result.js";
import type { AnalysisDeps } from "../graph/context.js";
import type { AnalyzerInput } from "../graph/state.js";

/**
 * What a parser reads of its run when it needs no I/O: plain data, so the same parser runs on a worker thread
 * (nodes/examine-off-loop.ts). An AnalyzerRun is one.
 */
export interface ArtifactSource {
  input: { artifact: Pick<ArtifactInput, "field">; datasetName: string | null };
}

/** What one analyzer node is made of: its format reader, its detectors, and what it tells others. */
export interface AnalyzerSpec<Parsed, Facts, Run extends ArtifactSource = AnalyzerRun> {
  kind: ArtifactKind;
  agentName: AgentName;
  /**
   * Reads the artifact's format; throws an Error naming what is wrong when the content is broken. A property, not
   * a method, so its parameter is checked strictly: a parser typed for an ArtifactSource cannot use more of the run.
   */
  parse: (payload: Record<string, unknown>, run: Run) => Promise<Parsed> | Parsed;
  /** Runs the deterministic detectors (pure). */
  detect(parsed: Parsed): Finding[];
  /** Numbers for the cross-artifact rules, from the parsed artifact and its detector findings. */
  facts(parsed: Parsed, findings: readonly Finding[]): Facts;
  /** A compact, bounded digest of the artifact and its detector findings for the language model. */
  digest(parsed: Parsed, findings: readonly Finding[]): unknown;
  /** What was analyzed, e.g. ["training_artifacts.metrics (lightning_csv, 1950 rows)"]. */
  describe(parsed: Parsed): string[];
}

/** What a running analyzer can reach besides its artifact. */
export interface AnalyzerRun {
  input: AnalyzerInput;
  deps: AnalysisDeps;
  signal: AbortSignal;
  /** Reports progress of long parsers and downloads to streaming clients. */
  progress(message: string): void;
}
