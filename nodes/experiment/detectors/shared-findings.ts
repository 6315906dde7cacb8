import type { Finding, Severity } from "../../../domain/result.js";
import { SEVERITIES, severityRank } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { Experiment } from "../model.js";

/** Runs named per grouped finding, at most. */
const NAMED = 10;
/** Share of the runs from which a shared finding is the setup's rather than some configurations'. */
const MOST = 0.5;

/**
 * Per-run findings that several runs share, one line each ("training.overfitting in 14 of 20 runs"), so the same
 * diagnosis is read once rather than once per run.
 */
export function detectSharedRunFindings(e: Experiment): Finding[] {
  const byId = new Map<string, { title: string; severity: Severity; confidence: number; runs: string[] }>();
  for (const r of e.runs) {
    for (const f of r.digest.findings) {
      const seen = byId.get(f.id) ?? { title: f.title, severity: "info" as Severity, confidence: 0, runs: [] };
      if (severityRank(f.severity) < severityRank(seen.severity)) seen.severity = f.severity;
      seen.confidence = Math.max(seen.confidence, f.confidence);
      if (!seen.runs.includes(r.name)) seen.runs.push(r.name);
      byId.set(f.id, seen);
    }
  }
  const shared = [...byId].filter(([, v]) => v.runs.length >= 2).sort(([a, x], [b, y]) => severityRank(x.severity) - severityRank(y.severity) || y.runs.length - x.runs.length || a.localeCompare(b));
  if (shared.length === 0) return [];
  // The group is as severe as what most runs share (the setup's problem); rarer ones are listed, and failures are
  // experiment.failed_runs' to judge.
  const common = shared.filter(([, v]) => v.runs.length > e.runs.length * MOST);
  const worst = common.length ? SEVERITIES[Math.min(...common.map(([, v]) => severityRank(v.severity)))]! : "info";
  return [
    detectorFinding({
      id: "experiment.shared_run_findings",
      title: "Per-run findings shared across runs",
      description: `What the per-run diagnoses have in common: ${shared.slice(0, 6).map(([id, v]) => `${v.title} [${id}] in ${v.runs.length} of ${e.runs.length} runs`).join("; ")}${shared.length > 6 ? "; …" : ""}. A problem shared by most runs belongs to the setup (data, model, pipeline), not to a configuration.`,
      evidence: shared.map(([id, v]) => ({
        rule_id: "EX-07",
        artifact: "runs:findings",
        text: `${id} (${v.severity} at worst) in ${v.runs.length} of ${e.runs.length} runs: ${v.runs.slice(0, NAMED).join(", ")}${v.runs.length > NAMED ? ", …" : ""}.`,
        observed: v.runs.length,
        values: { finding_id: id, finding_severity: v.severity, runs: e.runs.length },
      })),
      severity: worst,
      confidence: Math.max(...shared.map(([, v]) => v.confidence)),
      recommendation: null,
    }),
  ];
}
