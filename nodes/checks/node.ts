import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../graph/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { type AnalyzerSpec, runAnalyzer } from "../analyzer.js";
import { detectChecksFindings } from "./detect.js";
import type { ChecksFacts } from "./facts.js";
import { type ChecksReport, parseChecksArtifact } from "./parse.js";

function checksFacts(report: ChecksReport): ChecksFacts {
  return {
    tools: [...new Set(report.outcomes.map((o) => o.tool))],
    leakage_failures: [], drifted_features: [], drift_share: null, label_drift: null, label_drift_detected: false,
    overlap_fraction: null, nonfinite_columns: [],
    checks_total: report.outcomes.length,
    checks_failed: report.outcomes.filter((o) => o.status === "fail").length,
  };
}

export const checksAnalyzer: AnalyzerSpec<ChecksReport, ChecksFacts> = {
  kind: "checks",
  agentName: AGENT_NAMES.checks,
  parse: (payload) => parseChecksArtifact(payload),
  detect: detectChecksFindings,
  facts: checksFacts,
  digest: (report) => report.outcomes.slice(0, 50),
  describe: (report) => [`checks_artifacts (${report.outcomes.length} checks)`],
};

/** Analyzer node for data-check reports. */
export function analyzeChecks(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(checksAnalyzer, input, config);
}
