import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { describeConfig, type Experiment, fmt, worseBy } from "../model.js";
import { tiedWithBest } from "./within-noise.js";

/** The run to pick: the best configuration by mean objective over its seeds, its best run, and how sure that is. */
export function detectPick(e: Experiment): Finding[] {
  const ties = tiedWithBest(e);
  if (!ties) {
    const only = e.runs.filter((r) => r.score !== null);
    if (only.length !== 1) return [];
  }
  const group = ties?.best ?? e.groups.find((g) => g.mean !== null);
  if (!group) return [];
  const run = [...group.scored].sort((a, b) => worseBy(e.objective, a.score!, b.score!))[0]!;
  const tied = ties?.tied ?? [];
  const seeds = group.scored.length > 1 ? ` (mean over ${group.scored.length} seeds ${fmt(group.mean)})` : "";
  // A lead needs another configuration with a score: one whose runs all failed is not beaten within or beyond noise.
  const rivals = e.groups.filter((g) => g !== group && g.mean !== null).length;
  return [
    detectorFinding({
      id: "experiment.pick",
      title: `Pick ${run.name}`,
      description: `${run.name} has the best ${e.objective.metric}: ${fmt(run.score)}${seeds}, configuration ${describeConfig(group.params)}. ${tied.length ? `Its lead over ${tied.length} other configuration(s) is within noise, so any of them is as good on this evidence.` : rivals ? "Its lead over the next configuration is beyond noise." : ""}`,
      evidence: [
        {
          rule_id: "EX-06",
          artifact: `runs:${e.objective.metric}`,
          text: `${run.name}: best ${e.objective.metric} ${fmt(run.score)} at step ${e.objective.direction === "minimize" ? run.objective?.minStep : run.objective?.maxStep}; configuration mean ${fmt(group.mean)} over ${group.scored.length} run(s).`,
          observed: run.score,
          noise_estimate: Number(e.noise.sigma.toPrecision(6)),
          n_points: group.scored.length,
          values: { run: run.name, config_mean: group.mean, tied_configs: tied.length },
        },
      ],
      severity: "info",
      confidence: tied.length ? 0.5 : 0.8,
      recommendation: {
        action: `Use ${run.name}'s configuration (${describeConfig(group.params)})${tied.length ? ", or the cheapest of the configurations tied with it" : ""}`,
        rationale: `It has the best ${e.objective.metric} of the runs compared, judged on the mean over seeds where there are several.`,
        category: "training",
        effort: "low",
      },
    }),
  ];
}
