import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../domain/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { runAnalyzer } from "../analyzer.js";
import type { AnalyzerSpec, ArtifactSource } from "../analyzer-spec.js";
import { prioritizeFindings } from "../findings.js";
import { groupByRootCause } from "../root-causes.js";
import { detectChecksFindings } from "./detect.js";
import { describeChecks, digestChecks } from "./digest.js";
import type { ChecksFacts } from "./facts.js";
import type { ChecksReport } from "./model.js";
import { parseChecksArtifact } from "./parse.js";
import { CHECKS_ROOT_CAUSES } from "./root-causes.js";
import { checksFacts } from "./to-facts.js";

export const checksAnalyzer: AnalyzerSpec<ChecksReport, ChecksFacts, ArtifactSource> = {
  kind: "checks",
  agentName: AGENT_NAMES.checks,
  parse: (payload, run) => parseChecksArtifact(payload, run.input.artifact.field, run.input.datasetName),
  detect: (report) => groupByRootCause(prioritizeFindings(detectChecksFindings(report)), CHECKS_ROOT_CAUSES),
  facts: checksFacts,
  digest: digestChecks,
  describe: describeChecks,
};

/** Analyzer node for data-check reports. */
export function analyzeChecks(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(checksAnalyzer, input, config);
}
