import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import type { AnalysisContext, ArtifactInput } from "../artifacts/context.js";
import type { Language } from "../artifacts/language.js";
import type { FactsByKind } from "./facts.js";
import type { AgentResult } from "../domain/result.js";

/**
 * Keyed merge whose result has its keys in sorted order, so the order in which parallel branches finish never
 * changes the response (STYLE.md rule 5). Later writes to the same key win.
 */
export function mergeByKey<T>(left: Readonly<Record<string, T>>, right: Readonly<Record<string, T>>): Record<string, T> {
  const merged: Record<string, T> = { ...left, ...right };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const record = <T>() =>
  new ReducedValue(z.custom<Record<string, T>>().default(() => ({})), { reducer: mergeByKey<T> });

export const AnalysisState = new StateSchema({
  context: z.custom<AnalysisContext>(),
  /** Agent name → result, one writer per agent. */
  agentResults: record<AgentResult>(),
  /** Agent name → error message (spec: error_messages). */
  errors: record<string>(),
  /** Artifact kind → facts for the cross-artifact rules. */
  facts: new ReducedValue(z.custom<FactsByKind>().default(() => ({})), {
    reducer: (a: FactsByKind, b: FactsByKind): FactsByKind => ({ ...a, ...b }),
  }),
  /** Output name → value (recommendations, citations, usage, trace, …). */
  additionalOutputs: record<unknown>(),
  summary: z.string().nullable().default(null),
});
export type AnalysisStateValue = typeof AnalysisState.State;
export type AnalysisStateUpdate = typeof AnalysisState.Update;

/** What `route` sends each analyzer: its own artifact and the request-wide settings, nothing else. */
export interface AnalyzerInput {
  artifact: ArtifactInput;
  language: Language;
  datasetName: string | null;
  modelName: string | null;
}
