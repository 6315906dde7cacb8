import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { AnalysisContext } from "../../artifacts/context.js";
import { needsTrackingServer, resolveReferences } from "../../artifacts/resolve.js";
import { createWorkspace } from "../../artifacts/workspace.js";
import type { ExperimentDeps } from "../../graph/experiment-context.js";
import type { ExperimentStateUpdate, RunInput } from "../../graph/experiment-state.js";
import { compareFindings } from "../../domain/result.js";
import type { AnalysisResponse } from "../../graph/response.js";
import { runAnalysis, StrictModeError } from "../../graph/run.js";
import { parseTrainingArtifact } from "../training/parse/index.js";
import type { RunDigest } from "./digest.js";
import { type MetricSummary, summarizeRun } from "./reduce.js";

export function experimentDepsOf(config: LangGraphRunnableConfig): ExperimentDeps {
  const deps = config.context as ExperimentDeps | undefined;
  if (!deps?.analysisGraph) throw new Error("experiment dependencies missing from the run context");
  return deps;
}

/**
 * The run's metrics reduced for the cross-run detectors. A training artifact the parser cannot read gives none:
 * the per-run training analyzer reports why in the run's errors.
 */
function reduceMetrics(context: AnalysisContext, wanted: string | null): { metrics: MetricSummary[]; params: Record<string, string> } {
  const training = context.artifacts.find((a) => a.kind === "training");
  if (!training) return { metrics: [], params: {} };
  try {
    const parsed = parseTrainingArtifact(training.payload);
    return { metrics: summarizeRun(parsed, wanted), params: parsed.params };
  } catch {
    return { metrics: [], params: {} };
  }
}

function digestOf(input: RunInput, response: AnalysisResponse, reduced: ReturnType<typeof reduceMetrics>): RunDigest {
  const findings = Object.values(response.agent_results)
    .flatMap((r) => r.findings)
    .sort(compareFindings)
    .filter((f, i, all) => all.findIndex((g) => g.id === f.id) === i)
    .map((f) => ({ id: f.id, title: f.title, severity: f.severity, confidence: f.confidence }));
  return {
    name: input.run.name,
    index: input.run.index,
    params: reduced.params,
    metrics: reduced.metrics,
    summary: response.summary,
    findings,
    errors: response.error_messages,
  };
}

/**
 * One run through the per-run analysis graph (the same graph POST /v1/analyse runs), its MLflow artifacts pulled
 * first into a workspace of its own that is removed as soon as the run is analysed; what is kept is its digest,
 * never its series.
 */
export async function analyzeRun(input: RunInput, config: LangGraphRunnableConfig): Promise<ExperimentStateUpdate> {
  const deps = experimentDepsOf(config);
  const { run } = input;
  const workspace = needsTrackingServer(run.context, deps.settings) ? await createWorkspace(deps.settings.SERVICE_WORKSPACE_DIR) : null;
  try {
    const context = workspace
      ? await resolveReferences(run.context, { settings: deps.settings, deadline: deps.deadline, workspace: workspace.dir, logger: deps.logger.child({ run: run.name }) })
      : run.context;
    const reduced = reduceMetrics(context, input.wanted);
    let response: AnalysisResponse;
    // The per-run graph gets a signal of its own that ends with the request: langgraph leaves a listener on the
    // signal of every invoke, which must not pile up on the request's over hundreds of runs.
    const own = deps.deadline.scope(Number.POSITIVE_INFINITY, "the comparison's run");
    try {
      response = await runAnalysis(deps.analysisGraph, context, { ...deps, workspace: workspace?.dir ?? null }, { workers: deps.workers, signal: own.signal });
    } catch (err) {
      // The request's end and strict mode end the comparison; anything else fails this run only.
      if (deps.deadline.signal.aborted || err instanceof StrictModeError) throw err;
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      response = { agent_results: {}, summary: null, additional_outputs: {}, error_messages: { analysis: message }, dataset_name: null };
    } finally {
      own.dispose();
    }
    return { runs: { [run.name]: digestOf(input, response, reduced) } };
  } finally {
    await workspace?.dispose();
  }
}
