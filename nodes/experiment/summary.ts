import type { Finding } from "../../domain/result.js";
import type { BaselineComparison } from "./detectors/regression.js";
import { type Experiment, fmt } from "./model.js";

/** The comparison in a few sentences: what was compared, the verdict against the baseline, the top findings. */
export function experimentSummary(e: Experiment, findings: readonly Finding[], comparison: BaselineComparison | null): string {
  const o = e.objective;
  const failed = e.runs.filter((r) => r.failure !== null).length;
  const parts = [
    `${e.runs.length} run(s) in ${e.groups.length} configuration(s) compared on ${o.metric} (${o.direction}${o.inferred ? ", inferred from the metric names" : ""})` +
      `${e.swept.length ? `, sweeping ${e.swept.join(", ")}` : ""}${failed ? `; ${failed} failed` : ""}.`,
    `Noise between runs: σ = ${fmt(e.noise.sigma)} (${e.noise.source === "seeds" ? `from ${e.noise.replicatedConfigs} configuration(s) repeated with several seeds` : e.noise.deterministicConfigs ? "from the runs' own curves: the seed replicates are identical, training is deterministic" : "from the runs' own curves: no configuration was repeated"}); each comparison uses the noise of its two configurations.`,
  ];
  if (comparison) {
    const regressed = comparison.candidates.filter((c) => c.regression);
    parts.push(regressed.length ? `Regression against the baseline ${comparison.baseline}: ${regressed.flatMap((c) => c.runs).join(", ")}.` : `No regression against the baseline ${comparison.baseline} beyond noise.`);
  }
  const notable = findings.filter((f) => f.id !== "experiment.pick" && f.severity !== "info").slice(0, 3);
  if (notable.length) parts.push(`Findings: ${notable.map((f) => `${f.title} (${f.severity})`).join("; ")}.`);
  const pick = findings.find((f) => f.id === "experiment.pick");
  if (pick) parts.push(`${pick.title}: ${pick.description.split(". ")[0]}.`);
  return parts.join(" ");
}
