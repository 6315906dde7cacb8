import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { AnalysisDeps } from "../graph/context.js";
import type { FactsByKind } from "../graph/facts.js";
import type { AgentName, Finding } from "../domain/result.js";
import { AGENT_BUDGET, agentBudgetMs, LLM_BUDGET, llmBudgetMs } from "../graph/budgets.js";
import { untilAborted } from "../graph/deadline.js";
import type { AnalysisStateUpdate, AnalyzerInput } from "../graph/state.js";
import type { AnalyzerRun, AnalyzerSpec } from "./analyzer-spec.js";
import { buildAgentResult } from "./agent-result.js";
import { analyzerTurn } from "./analyzer-turn.js";
import { examineArtifact } from "./examine-off-loop.js";
import { prioritizeFindings } from "./findings.js";

export function depsOf(config: LangGraphRunnableConfig): AnalysisDeps {
  const deps = config.context as AnalysisDeps | undefined;
  if (!deps) throw new Error("analysis dependencies missing from the run context");
  return deps;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The analyzer pipeline shared by every analyzer node: parse → detect → cite → (LLM review) → result, within the
 * agent's budget (graph/budgets.ts). Each finished stage is kept: the agent's time-out or a model fault returns
 * the detector findings of the last stage reached with the error, never an empty result. Content errors become
 * the agent's error message.
 */
export async function runAnalyzer<P, F>(
  spec: AnalyzerSpec<P, F>,
  input: AnalyzerInput,
  config: LangGraphRunnableConfig,
): Promise<AnalysisStateUpdate> {
  const deps = depsOf(config);
  const agentMs = agentBudgetMs(deps.deadline, deps.settings);
  const agent = deps.deadline.scope(agentMs, AGENT_BUDGET);
  const signal = agent.signal;
  const run: AnalyzerRun = {
    input,
    deps,
    signal,
    progress: (message) => config.writer?.({ node: spec.agentName, progress: message }),
  };
  /** The last stage reached, as the update to return with an error when the agent runs out of time. */
  let kept: ((error: string) => AnalysisStateUpdate) | null = null;
  const work = async (): Promise<AnalysisStateUpdate> => {
    // With a model, analyzers take turns so that their model calls leave one after another as each prompt is
    // ready, not together after all of them (nodes/analyzer-turn.ts).
    if (deps.llm) await analyzerTurn(deps);
    // The deterministic stage, on a worker thread when the artifact is large enough to be worth the hop.
    const examination = await examineArtifact(spec, run, deps.llm !== null);
    if ("unreadable" in examination) {
      if (signal.aborted) throw signal.reason;
      return failedAgent(spec.agentName, [input.artifact.field], `could not read ${input.artifact.field}: ${examination.unreadable}`);
    }
    const { findings: detected, facts, digest, analyzed } = examination.examined;
    const result = (findings: Finding[], error: string | null, summary: string | null): AnalysisStateUpdate => ({
      agentResults: { [spec.agentName]: buildAgentResult(spec.agentName, findings, analyzed, error, summary) },
      facts: { [spec.kind]: facts } as FactsByKind,
      errors: error ? { [spec.agentName]: error } : {},
    });
    kept = (error) => result(detected, error, null);
    let findings = await deps.knowledge.citeFindings(detected, signal);
    const cited = findings;
    kept = (error) => result(cited, error, null);
    if (!deps.llm) return result(findings, null, null);
    const llm = deps.llm;
    try {
      const review = await deps.deadline.within(Math.min(llmBudgetMs(deps.settings), agent.remainingMs()), LLM_BUDGET, (llmSignal) =>
        llm.reviewAgent({ agentName: spec.agentName, language: input.language, digest, findings }, { ...config, signal: llmSignal }),
      );
      // Findings the model added arrive uncited; citing again is cached and keeps existing citations.
      findings = await deps.knowledge.citeFindings(keepDetectorFindings(findings, review.findings), signal);
      return result(findings, null, review.summary);
    } catch (err) {
      if (signal.aborted) throw err;
      return result(findings, `language model review failed, detector findings kept: ${errorText(err)}`, null);
    }
  };
  try {
    return await untilAborted(deps.analyzerSlots ? deps.analyzerSlots.run(work, signal) : work(), signal);
  } catch (err) {
    // The request's own end (time-out, client gone) ends the run; the agent's only ends this agent.
    if (deps.deadline.signal.aborted || !signal.aborted) throw err;
    const message = `timed out after ${agentMs} ms (${agentMs < deps.settings.SERVICE_AGENT_TIMEOUT_MS ? "what SERVICE_REQUEST_TIMEOUT_MS left for analyzers" : AGENT_BUDGET})`;
    const keep = kept as ((error: string) => AnalysisStateUpdate) | null;
    return keep ? keep(`${message}; detector findings kept`) : failedAgent(spec.agentName, [input.artifact.field], message);
  } finally {
    agent.dispose();
  }
}

/**
 * The model may refine or add findings but never drop a detector's: every detector finding missing from the
 * review is put back as it was.
 */
export function keepDetectorFindings(detected: readonly Finding[], reviewed: readonly Finding[]): Finding[] {
  const reviewedIds = new Set(reviewed.map((f) => f.id));
  const dropped = detected.filter((f) => !reviewedIds.has(f.id));
  return prioritizeFindings([...reviewed, ...dropped]);
}

/** The state update of an agent that produced nothing but an error. */
export function failedAgent(agentName: AgentName, analyzed: string[], message: string): AnalysisStateUpdate {
  return {
    agentResults: { [agentName]: buildAgentResult(agentName, [], analyzed, message, null) },
    errors: { [agentName]: message },
  };
}
