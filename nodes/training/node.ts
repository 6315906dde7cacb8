import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../graph/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { type AnalyzerSpec, runAnalyzer } from "../analyzer.js";
import { detectTrainingFindings } from "./detect.js";
import type { TrainingFacts } from "./facts.js";
import { parseTrainingArtifact, type TrainingRun } from "./parse.js";

function trainingFacts(run: TrainingRun): TrainingFacts {
  const names = [...run.series.keys()];
  const last = (name: string) => run.series.get(name)?.values.at(-1) ?? null;
  return {
    metrics: names,
    n_points: names.reduce((n, k) => n + run.series.get(k)!.values.length, 0),
    val_quantities: names.filter((n) => /^(val|eval|valid)/.test(n)).map((n) => n.replace(/^(val|eval|valid)[_/]/, "")),
    last_step: Math.max(...[...run.series.values()].map((s) => s.steps.at(-1) ?? 0)),
    last_epoch: null, best_val_step: null, best_val_epoch: null, best_val_loss: null,
    final_val_loss: last("val_loss"), final_train_loss: last("train_loss"),
    best_val_accuracy: null, final_val_accuracy: last("val_accuracy"), final_train_accuracy: last("train_accuracy"),
    val_noise: null, spike_steps: [], lr_peak_step: null,
    losses_finite: [...run.series.values()].every((s) => !/loss/.test(s.name) || s.values.every(Number.isFinite)),
    params: run.params,
  };
}

export const trainingAnalyzer: AnalyzerSpec<TrainingRun, TrainingFacts> = {
  kind: "training",
  agentName: AGENT_NAMES.training,
  parse: (payload) => parseTrainingArtifact(payload),
  detect: detectTrainingFindings,
  facts: trainingFacts,
  digest: (run) => ({ format: run.format, metrics: [...run.series.values()].map((s) => ({ name: s.name, points: s.values.length, first: s.values[0], last: s.values.at(-1) })) }),
  describe: (run) => [`training_artifacts.metrics (${run.format}, ${run.series.size} series)`],
};

/** Analyzer node for training metrics and logs. */
export function analyzeTraining(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(trainingAnalyzer, input, config);
}
