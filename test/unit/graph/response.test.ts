import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import { assembleResponse } from "../../../graph/response.js";
import type { AgentResult } from "../../../domain/result.js";
import type { AnalysisStateValue } from "../../../graph/state.js";

describe("assembleResponse", () => {
  it("passes every failure text on as one line, in error_messages and in the agent's error_message", () => {
    const upstream = "language model review failed: 400 upstream said:\n  Traceback (most recent call last):\r\n    File x";
    const state = {
      context: decodeAnalysisRequest({ dataset_name: "d", training_artifacts: { metrics: { loss: [1] } } }, "r"),
      agentResults: { TrainingArtifactsAnalyzer: { agent_name: "TrainingArtifactsAnalyzer", error_message: upstream } as unknown as AgentResult },
      errors: { TrainingArtifactsAnalyzer: upstream },
      summary: null,
      additionalOutputs: {},
    } as unknown as AnalysisStateValue;
    const response = assembleResponse(state);
    const line = "language model review failed: 400 upstream said: Traceback (most recent call last): File x";
    expect(response.error_messages).toEqual({ TrainingArtifactsAnalyzer: line });
    expect(response.agent_results.TrainingArtifactsAnalyzer!.error_message).toBe(line);
    expect(response.dataset_name).toBe("d");
  });
});
