import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { ChainValues } from "@langchain/core/utils/types";
import { EXPERIMENT_NODE } from "../nodes/experiment/names.js";

/** How far a comparison is: runs analysed so far out of the runs it compares (known once the graph starts). */
export interface RunsProgress {
  runs_done: number;
  runs_total: number | null;
}

/**
 * Counts a comparison's finished runs from LangChain callbacks: the experiment graph's input names every run,
 * and each `analyzeRun` node that ends (ok or failed) is one run done. Called as SpanCollector is
 * (server/trace.ts): (chain, inputs, runId, parentRunId, tags, metadata, runType, runName).
 */
export class RunProgressCounter extends BaseCallbackHandler {
  name = "run-progress";
  override awaitHandlers = true;
  // Only node (chain) events count runs: LangChain skips it for every model and custom event of the comparison.
  override ignoreLLM = true;
  override ignoreCustomEvent = true;
  override ignoreAgent = true;
  override ignoreRetriever = true;
  private readonly open = new Set<string>();
  private readonly state: RunsProgress = { runs_done: 0, runs_total: null };

  constructor(private readonly report: (progress: RunsProgress) => void) {
    super();
  }

  override copy(): this {
    return this;
  }

  override handleChainStart(
    _chain: unknown,
    inputs: ChainValues,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    const runs = (inputs as { compare?: { runs?: unknown } } | undefined)?.compare?.runs;
    if (this.state.runs_total === null && Array.isArray(runs)) {
      this.state.runs_total = runs.length;
      this.report({ ...this.state });
    }
    if (runName === EXPERIMENT_NODE.analyzeRun && metadata?.langgraph_node === runName) this.open.add(runId);
  }

  override handleChainEnd(_outputs: ChainValues, runId: string): void {
    this.done(runId);
  }

  override handleChainError(_err: Error, runId: string): void {
    this.done(runId);
  }

  private done(runId: string): void {
    if (!this.open.delete(runId)) return;
    this.state.runs_done++;
    this.report({ ...this.state });
  }
}
