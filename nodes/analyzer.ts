import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ArtifactKind } from "../artifacts/context.js";
import type { AnalysisDeps } from "../graph/context.js";
import type { FactsByKind } from "../graph/facts.js";
import type { AgentName, Finding } from "../graph/result.js";
import type { AnalysisStateUpdate, AnalyzerInput } from "../graph/state.js";
import { buildAgentResult } from "./agent-result.js";
import { prioritizeFindings } from "./findings.js";

/** What one analyzer node is made of: its format reader, its detectors, and what it tells others. */
export interface AnalyzerSpec<Parsed, Facts> {
  kind: ArtifactKind;
  agentName: AgentName;
  /** Reads the artifact's format; throws an Error naming what is wrong when the content is broken. */
  parse(payload: Record<string, unknown>, run: AnalyzerRun): Promise<Parsed> | Parsed;
  /** Runs the deterministic detectors (pure). */
  detect(parsed: Parsed): Finding[];
  /** Numbers for the cross-artifact rules. */
  facts(parsed: Parsed, findings: readonly Finding[]): Facts;
  /** A compact, bounded digest of the artifact for the language model. */
  digest(parsed: Parsed): unknown;
  /** What was analyzed, e.g. ["training_artifacts.metrics (lightning_csv, 1950 rows)"]. */
  describe(parsed: Parsed): string[];
}

/** What a running analyzer can reach besides its artifact. */
export interface AnalyzerRun {
  input: AnalyzerInput;
  deps: AnalysisDeps;
  signal: AbortSignal;
  /** Reports progress of long parsers and downloads to streaming clients. */
  progress(message: string): void;
}

export function depsOf(config: LangGraphRunnableConfig): AnalysisDeps {
  const deps = config.context as AnalysisDeps | undefined;
  if (!deps) throw new Error("analysis dependencies missing from the run context");
  return deps;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The analyzer pipeline shared by every analyzer node: parse → detect → cite → (LLM review) → result.
 * Content errors and LLM faults become the agent's error message; its detector findings survive an LLM fault.
 */
export async function runAnalyzer<P, F>(
  spec: AnalyzerSpec<P, F>,
  input: AnalyzerInput,
  config: LangGraphRunnableConfig,
): Promise<AnalysisStateUpdate> {
  const deps = depsOf(config);
  const signal = config.signal ?? new AbortController().signal;
  const run: AnalyzerRun = {
    input,
    deps,
    signal,
    progress: (message) => config.writer?.({ node: spec.agentName, progress: message }),
  };
  const work = async (): Promise<AnalysisStateUpdate> => {
    let parsed: P;
    try {
      parsed = await spec.parse(input.artifact.payload, run);
    } catch (err) {
      if (signal.aborted) throw err;
      return failedAgent(spec.agentName, [input.artifact.field], `could not read ${input.artifact.field}: ${errorText(err)}`);
    }
    const detected = prioritizeFindings(spec.detect(parsed));
    let findings = await deps.knowledge.citeFindings(detected, signal);
    let summary: string | null = null;
    let error: string | null = null;
    if (deps.llm) {
      try {
        const review = await deps.llm.reviewAgent(
          { agentName: spec.agentName, language: input.language, digest: spec.digest(parsed), findings },
          config,
        );
        // Findings the model added arrive uncited; citing again is cached and keeps existing citations.
        findings = await deps.knowledge.citeFindings(keepDetectorFindings(findings, review.findings), signal);
        summary = review.summary;
      } catch (err) {
        if (signal.aborted) throw err;
        error = `language model review failed, detector findings kept: ${errorText(err)}`;
      }
    }
    const result = buildAgentResult(spec.agentName, findings, spec.describe(parsed), error, summary);
    return {
      agentResults: { [spec.agentName]: result },
      facts: { [spec.kind]: spec.facts(parsed, findings) } as FactsByKind,
      errors: error ? { [spec.agentName]: error } : {},
    };
  };
  return deps.analyzerSlots ? deps.analyzerSlots.run(work, signal) : work();
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
