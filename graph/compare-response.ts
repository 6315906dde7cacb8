import type { Citation } from "../knowledge/port.js";
import type { RunFindingDigest } from "../nodes/experiment/digest.js";
import type { BaselineComparison } from "../nodes/experiment/detectors/regression.js";
import type { NoiseModel } from "../nodes/experiment/model.js";
import type { Objective } from "../nodes/experiment/objective.js";
import type { ExperimentStateValue } from "./experiment-state.js";
import { type Finding, type Recommendation, shownPerRun } from "../domain/result.js";

/** Per-run findings listed in a run's entry besides those always shown; the rest are counted (and grouped across runs in `findings`). */
const TOP_FINDINGS = 3;

/** One run in the comparison's response. */
export interface CompareRunEntry {
  name: string;
  params: Record<string, string>;
  status: "ok" | "failed";
  failure: string | null;
  /** The objective in this run: best value (and its step), level at the end, σ̂ of one evaluation. */
  objective: { best: number | null; best_step: number | null; final: number | null; last_step: number | null; noise: number } | null;
  summary: string | null;
  findings_count: number;
  top_findings: RunFindingDigest[];
  error_messages: Record<string, string>;
  /** The objective's curve, reduced (at most 64 points), for charts. */
  curve: { steps: number[]; values: number[] } | null;
}

/** The response body of POST /v1/compare (docs/experiments.md). */
export interface CompareResponse {
  dataset_name: string | null;
  objective: Objective | null;
  runs: CompareRunEntry[];
  findings: Finding[];
  summary: string;
  recommendations: Recommendation[];
  citations: Citation[];
  baseline_comparison: BaselineComparison | null;
  noise: NoiseModel | null;
  error_messages: Record<string, string>;
  additional_outputs: Record<string, unknown>;
}

/** Assembles the response from the experiment graph's final state, runs in the order they were sent. */
export function assembleCompareResponse(state: ExperimentStateValue, agent: string, extra: Record<string, unknown>): CompareResponse {
  const result = state.result;
  if (!result) throw new Error("the experiment graph produced no result");
  const verdicts = new Map(result.verdicts.map((v) => [v.name, v]));
  const runs = Object.values(state.runs)
    .sort((a, b) => a.index - b.index)
    .map((d): CompareRunEntry => {
      const v = verdicts.get(d.name);
      const m = result.objective ? d.metrics.find((s) => s.name === result.objective!.metric) : undefined;
      const minimize = result.objective?.direction !== "maximize";
      return {
        name: d.name,
        params: d.params,
        status: v?.failure ? "failed" : "ok",
        failure: v?.failure ?? null,
        objective: m ? { best: minimize ? m.min : m.max, best_step: minimize ? m.minStep : m.maxStep, final: m.final, last_step: m.lastStep, noise: m.noise } : null,
        summary: d.summary,
        findings_count: d.findings.length,
        top_findings: d.findings.filter((f, i) => i < TOP_FINDINGS || shownPerRun(f)),
        error_messages: d.errors,
        curve: m ? m.curve : null,
      };
    });
  return {
    dataset_name: state.compare.datasetName,
    objective: result.objective,
    runs,
    findings: result.findings,
    summary: result.summary,
    recommendations: result.recommendations,
    citations: result.citations,
    baseline_comparison: result.baselineComparison,
    noise: result.noise,
    error_messages: result.error ? { [agent]: result.error } : {},
    additional_outputs: extra,
  };
}
