import type { Send } from "@langchain/langgraph";
import { sendByReference } from "../graph/send.js";
import type { AnalysisStateValue, AnalyzerInput } from "../graph/state.js";
import { ANALYZER_BY_KIND } from "./names.js";

/** An artifact kind no analyzer supports: the spec makes this a 500. */
export class UnsupportedArtifactError extends Error {
  override name = "UnsupportedArtifactError";
}

/**
 * Pure router: one Send per artifact to its analyzer, carrying only that artifact. Decoding guarantees at least
 * one artifact, so the join always has a predecessor that ran.
 */
export function routeArtifacts(state: Pick<AnalysisStateValue, "context">): Send[] {
  const { context } = state;
  return context.artifacts.map((artifact) => {
    const target = (ANALYZER_BY_KIND as Record<string, string | undefined>)[artifact.kind];
    if (!target) throw new UnsupportedArtifactError(`no analyzer supports artifacts of type "${artifact.kind}"`);
    const input: AnalyzerInput = {
      artifact,
      language: context.language,
      datasetName: context.datasetName,
      modelName: context.modelName,
    };
    return sendByReference(target, input);
  });
}

/** The `route` node itself does no work: routing happens on its conditional edge (`routeArtifacts`). */
export function route(): Record<string, never> {
  return {};
}
