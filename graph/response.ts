import { oneLine } from "../artifacts/json-values.js";
import type { AnalysisStateValue } from "./state.js";
import type { AgentResult } from "../domain/result.js";

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
  // Failure texts carry upstream messages (a gateway's error body, a parser's): each is passed on as one line.
  const agentResults = Object.fromEntries(
    Object.entries(state.agentResults).map(([name, r]) => [name, r.error_message ? { ...r, error_message: oneLine(r.error_message) } : r]),
  );
  return {
    agent_results: agentResults,
    summary: state.summary ?? null,
    additional_outputs: { ...state.additionalOutputs, ...extra },
    error_messages: Object.fromEntries(Object.entries(state.errors).map(([agent, message]) => [agent, oneLine(message)])),
    dataset_name: state.context.datasetName,
  };
}
