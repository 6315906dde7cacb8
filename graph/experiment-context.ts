import type { AnalysisGraph } from "./build.js";
import type { AnalysisDeps } from "./context.js";

/** The experiment graph's dependencies: a per-run analysis's, plus the per-run graph each run goes through. */
export interface ExperimentDeps extends AnalysisDeps {
  analysisGraph: AnalysisGraph;
  /** Analyzer branches per run analysis (SERVICE_ANALYZER_WORKERS). */
  workers: number;
}
