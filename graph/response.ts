import type { AnalysisStateValue } from "./state.js";
import type { AgentResult } from "./result.js";

/** The response body of spec §2.2. */
export interface AnalysisResponse {
  agent_results: Record<string, AgentResult>;
  summary: string | null;
  additional_outputs: Record<string, unknown>;
  error_messages: Record<string, string>;
  dataset_name: string | null;
}

/** Assembles the response from the graph's final state (spec §4 rule 3). */
export function assembleResponse(state: AnalysisStateValue, extra: Record<string, unknown> = {}): AnalysisResponse {
  return {
    agent_results: state.agentResults,
    summary: state.summary ?? null,
    additional_outputs: { ...state.additionalOutputs, ...extra },
    error_messages: state.errors,
    dataset_name: state.context.datasetName,
  };
}
