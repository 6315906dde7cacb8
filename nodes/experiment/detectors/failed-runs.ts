import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { Experiment, ExperimentRun } from "../model.js";

/** What every failed run shares and no finished run has: a threshold on a numeric parameter or one value. */
export function sharedCause(e: Experiment, failed: readonly ExperimentRun[], ok: readonly ExperimentRun[]): string | null {
  for (const p of e.swept) {
    const f = failed.map((r) => r.params[p]);
    const o = ok.map((r) => r.params[p]);
    if (f.some((v) => v === undefined)) continue;
    const fn = f.map(Number);
    const on = o.map(Number);
    if (fn.every(Number.isFinite) && on.every((v) => Number.isFinite(v))) {
      const lo = Math.min(...fn);
      const hi = Math.max(...fn);
      if (on.length && on.every((v) => v < lo)) return `${p} ≥ ${lo}`;
      if (on.length && on.every((v) => v > hi)) return `${p} ≤ ${hi}`;
    }
    if (new Set(f).size === 1 && !o.includes(f[0])) return `${p} = ${f[0]}`;
  }
  return null;
}

/** Runs that diverged or failed, and what they have in common (every run with lr ≥ 3e-3 diverged). */
export function detectFailedRuns(e: Experiment): Finding[] {
  const failed = e.runs.filter((r) => r.failure !== null);
  if (failed.length === 0) return [];
  const ok = e.runs.filter((r) => r.failure === null);
  const cause = failed.length >= 2 ? sharedCause(e, failed, ok) : null;
  const share = failed.length / e.runs.length;
  const shared = cause ? ` Every run with ${cause} failed (${failed.length} of ${failed.length}) and no run outside it did.` : "";
  return [
    detectorFinding({
      id: "experiment.failed_runs",
      title: cause ? `Runs with ${cause} failed` : `${failed.length} of ${e.runs.length} runs failed`,
      description: `${failed.length} of ${e.runs.length} runs failed or diverged: ${failed.slice(0, 5).map((r) => `${r.name} (${r.failure})`).join("; ")}${failed.length > 5 ? "; …" : ""}.${shared}`,
      evidence: [
        {
          rule_id: "EX-04",
          artifact: "runs",
          text: `${failed.length} failed run(s) of ${e.runs.length}${cause ? `; shared: ${cause}` : ""}.`,
          observed: failed.length,
          values: { runs: e.runs.length, failed_share: Number(share.toFixed(4)), shared_cause: cause, failed_runs: failed.slice(0, 20).map((r) => r.name).join(", ") },
        },
      ],
      severity: share >= 0.25 ? "high" : "medium",
      confidence: scoreConfidence({ strength: failed.length, threshold: 1, points: e.runs.length, corroborations: cause ? 1 : 0 }),
      recommendation: {
        action: cause
          ? `Leave ${cause} out of the search space, or stabilize training there (learning-rate warmup, gradient clipping) before comparing configurations`
          : "Read the failed runs' own diagnoses and fix what made them fail before comparing configurations",
        rationale: "A failed run says nothing about its configuration's quality; a sweep whose failures share a parameter range has found the edge of the stable region.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}
