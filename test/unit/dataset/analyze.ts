import { readFileSync } from "node:fs";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { ENGLISH } from "../../../artifacts/language.js";
import type { AgentResult, Finding } from "../../../domain/result.js";
import type { AnalyzerInput } from "../../../graph/state.js";
import { runAnalyzer } from "../../../nodes/analyzer.js";
import type { AnalyzerRun, AnalyzerSpec } from "../../../nodes/analyzer-spec.js";
import { testDeps } from "../../support/analysis-deps.js";

/** A request body from test/fixtures (samples) parsed as the server parses it (bare NaN allowed). */
export function loadJson(relativeToFixtures: string): Record<string, unknown> {
  const url = new URL(`../../fixtures/${relativeToFixtures}`, import.meta.url);
  return parseTolerantJson(readFileSync(url, "utf8")) as Record<string, unknown>;
}

function inputFor(kind: AnalyzerInput["artifact"]["kind"], payload: Record<string, unknown>, field: string, datasetName: string | null): AnalyzerInput {
  return { artifact: { kind, field, payload, origin: "inline" }, language: ENGLISH, datasetName, modelName: null };
}

/** Parses an artifact with an analyzer's own parse step (as the pipeline calls it). */
export async function parseWith<P, F>(spec: AnalyzerSpec<P, F>, payload: Record<string, unknown>, field: string, datasetName: string | null = null): Promise<P> {
  const run: AnalyzerRun = { input: inputFor(spec.kind, payload, field, datasetName), deps: testDeps(), signal: new AbortController().signal, progress: () => {} };
  return spec.parse(payload, run);
}

export interface Analysis<F> {
  result: AgentResult;
  facts: F;
  findings: Finding[];
  byId(id: string): Finding | undefined;
}

/** Runs the whole analyzer pipeline (parse → detect → cite → result) in deterministic mode. */
export async function analyzeWith<P, F>(spec: AnalyzerSpec<P, F>, payload: Record<string, unknown>, field: string, datasetName: string | null = null): Promise<Analysis<F>> {
  const update = await runAnalyzer(spec, inputFor(spec.kind, payload, field, datasetName), { context: testDeps() } as LangGraphRunnableConfig);
  const result = (update.agentResults as Record<string, AgentResult>)[spec.agentName]!;
  const facts = (update.facts as Record<string, F> | undefined)?.[spec.kind] as F;
  return { result, facts, findings: result.findings, byId: (id) => result.findings.find((f) => f.id === id) };
}
