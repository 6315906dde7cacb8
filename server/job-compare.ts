import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { type CompareContext, decodeCompareRequest } from "../artifacts/compare-request.js";
import { expandExperimentRuns } from "../artifacts/mlflow/experiment-runs.js";
import type { ExperimentDeps } from "../graph/experiment-context.js";
import type { ExperimentStateValue, RunInput } from "../graph/experiment-state.js";
import { respondToComparison } from "../graph/run-experiment.js";
import { mergeByKey } from "../graph/state.js";
import type { CompareSteps, ComparePlan } from "../jobs/job.js";
import { analyzeRun } from "../nodes/experiment/analyze-run.js";
import type { RunDigest } from "../nodes/experiment/digest.js";
import { reasonAcrossRuns } from "../nodes/experiment/node.js";
import { routeRuns } from "../nodes/experiment/route.js";
import { analysisDeps } from "./analyze-request.js";
import { isCompareBody, type JobStep, type JobWorkOptions } from "./job-runner.js";
import type { ServiceRuntime } from "./runtime.js";

/** The experiment graph's context for one step, as POST /v1/compare gives its graph (server/compare-request.ts). */
function experimentDeps(runtime: ServiceRuntime, { logger, deadline }: JobWorkOptions): ExperimentDeps {
  return { ...analysisDeps(runtime, logger, deadline), analysisGraph: runtime.graph, workers: runtime.settings.SERVICE_ANALYZER_WORKERS };
}

function graphConfig(deps: ExperimentDeps): LangGraphRunnableConfig {
  return { context: deps as unknown as Record<string, unknown>, signal: deps.deadline.signal };
}

/**
 * A comparison job split along the experiment graph's own seams, so a shared queue can spread its runs over
 * every replica: the plan is the graph's router (routeRuns: one input per run), each run is its `analyzeRun` node
 * (the per-run graph, reduced to the run's digest), and the conclusion is its `reasonAcrossRuns` node over the
 * digests, assembled as runComparison assembles it. A digest is what the cross-run step reads and nothing more
 * (reduced metrics, at most 64 curve points per series, finding ids): a few kB per run in Redis, where the
 * per-run response with its evidence would be far larger. Each step runs as a request does (createJobStep).
 */
export function createCompareSteps(runtime: ServiceRuntime, step: JobStep): CompareSteps {
  const maxRuns = runtime.settings.SERVICE_MAX_COMPARE_RUNS;
  return {
    isCompare: isCompareBody,

    async plan(request, context) {
      // Kept as decoded, not through the step's JSON writing: the runs' inputs are the request's own data.
      const planned: { plan: ComparePlan | null } = { plan: null };
      const outcome = await step(request.id, context, async ({ requestId, logger, deadline }) => {
        const compare = await expandExperimentRuns(decodeCompareRequest(request.body, requestId, maxRuns), { settings: runtime.settings, deadline });
        logger.info("comparison fanned out", { runs: compare.runs.length, baseline: compare.baseline, objective: compare.objective?.metric ?? null });
        planned.plan = { head: { ...compare, runs: [], selectors: [] } satisfies CompareContext, runs: routeRuns({ compare }).map((send) => send.args as RunInput) };
        return null;
      });
      return outcome.state === "done" && planned.plan ? planned.plan : outcome;
    },

    analyseRun(id, input, context) {
      return step(id, context, async (options) => {
        const update = await analyzeRun(input as RunInput, graphConfig(experimentDeps(runtime, options)));
        return Object.values(update.runs ?? {})[0] ?? null;
      });
    },

    conclude(request, digests, context) {
      return step(request.id, context, async (options) => {
        const deps = experimentDeps(runtime, options);
        const compare = request.head as CompareContext;
        // The state the graph's runs would have left: one keyed merge per run, so the order runs finished never shows.
        const runs = (digests as RunDigest[]).reduce<Record<string, RunDigest>>((all, d) => mergeByKey(all, { [d.name]: d }), {});
        const state: ExperimentStateValue = { compare, runs, result: null };
        const { result } = await reasonAcrossRuns(state, graphConfig(deps));
        const response = respondToComparison({ ...state, result: result ?? null }, deps);
        options.logger.info("comparison finished", { runs: response.runs.length, findings: response.findings.length });
        return response;
      });
    },
  };
}
