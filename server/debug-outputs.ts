import type { AnalysisContext } from "../artifacts/context.js";
import type { AnalyzerInput } from "../graph/state.js";
import { trainingAnalyzer } from "../nodes/training/node.js";
import { type Curves, summarizeCurves } from "../report/curves.js";
import type { Span } from "../domain/trace.js";

/** What `trace: true` adds to additional_outputs: per-node spans and, for a training artifact, its curves. */
export interface DebugOutputs {
  trace: { spans: Span[] };
  curves?: Curves;
}

/**
 * The training artifact's curves, read with the training analyzer's own parser (the graph does not keep parsed
 * series in its state, so this parses a second time, only when asked). Null when there is no training artifact
 * or it cannot be read: the training analyzer has already reported why in error_messages.
 */
export async function extractCurves(context: AnalysisContext, signal: AbortSignal): Promise<Curves | null> {
  const artifact = context.artifacts.find((a) => a.kind === "training");
  if (!artifact) return null;
  const input: AnalyzerInput = { artifact, language: context.language, datasetName: context.datasetName, modelName: context.modelName };
  try {
    const run = await trainingAnalyzer.parse(artifact.payload, { input });
    return summarizeCurves(run.series.values());
  } catch (err) {
    if (signal.aborted) throw err;
    return null;
  }
}

/** The debug outputs of a finished run. */
export async function collectDebugOutputs(
  spans: Span[],
  context: AnalysisContext,
  signal: AbortSignal,
): Promise<DebugOutputs> {
  const curves = await extractCurves(context, signal);
  return { trace: { spans }, ...(curves && { curves }) };
}
