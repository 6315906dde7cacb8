import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../domain/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { runAnalyzer } from "../analyzer.js";
import type { AnalyzerSpec, ArtifactSource } from "../analyzer-spec.js";
import { prioritizeFindings } from "../findings.js";
import { groupByRootCause } from "../root-causes.js";
import { detectTrainingFindings } from "./detect.js";
import { trainingDigest } from "./digest.js";
import type { TrainingFacts } from "./facts.js";
import { trainingFacts } from "./facts-of.js";
import type { TrainingRun } from "./model.js";
import { parseTrainingArtifact } from "./parse/index.js";
import { TRAINING_ROOT_CAUSES } from "./root-causes.js";

/** What was analyzed, e.g. "training_artifacts.metrics (lightning_csv, 1950 rows, 10 series)". */
function describeRun(run: TrainingRun): string[] {
  const out = [describeMetrics(run)];
  if (run.format !== "logs_only" && run.format !== "printed_log" && run.logs.lines > 0) out.push(`training_artifacts.logs (${run.logs.lines} lines)`);
  if (Object.keys(run.params).length > 0) out.push(`training_artifacts.params (${Object.keys(run.params).length})`);
  return out;
}

function describeMetrics(run: TrainingRun): string {
  if (run.format === "printed_log") {
    const read = run.meta.logSeries;
    return `training_artifacts.logs (${run.logs.lines} lines; metric series read from ${read?.records ?? 0} of them, printed in the ${read?.styles.join(", ")} style: ${run.series.size} series)`;
  }
  if (run.format === "logs_only") {
    // Said, not left to silence: the training detectors had no curve to judge, only the log events.
    return `training_artifacts.logs (${run.logs.lines} lines; no metric series could be read from them: no line printed in a style ml-diagnose reads (Keras fit, Hugging Face Trainer dicts, tqdm/Lightning bars, mmcv/mmengine, Ultralytics, key=value or key: value prints), so only log events were looked for)`;
  }
  return `training_artifacts.metrics (${run.format}, ${run.meta.records} records, ${run.series.size} series)`;
}

export const trainingAnalyzer: AnalyzerSpec<TrainingRun, TrainingFacts, ArtifactSource> = {
  kind: "training",
  agentName: AGENT_NAMES.training,
  parse: (payload) => parseTrainingArtifact(payload),
  detect: (run) => groupByRootCause(prioritizeFindings(detectTrainingFindings(run)), TRAINING_ROOT_CAUSES),
  facts: (run) => trainingFacts(run),
  digest: trainingDigest,
  describe: describeRun,
};

/** Analyzer node for training metrics and logs. */
export function analyzeTraining(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(trainingAnalyzer, input, config);
}
