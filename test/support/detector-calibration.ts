import { type Severity, severityRank } from "../../domain/result.js";
import { detectTrainingFindings } from "../../nodes/training/detect.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { FAULTS, FAULT_TYPES, type FaultType, faultyHistory } from "./synthetic-faults.js";
import { HEALTHY_KINDS, healthyHistory } from "./synthetic-history.js";

/** Severity counts per finding id. */
export type SeverityCounts = Record<string, Partial<Record<Severity, number>>>;

export interface HealthyFigures {
  runs: number;
  /** Runs with any finding of severity high or critical. */
  severeRuns: number;
  /** Runs with any finding of severity medium or worse. */
  mediumRuns: number;
  /** Per finding id: in how many runs it fired, by severity. */
  byFinding: SeverityCounts;
}

/** Runs every detector over `runs` seeded healthy histories (all healthy kinds in turn). */
export function measureHealthy(runs: number, firstSeed = 1): HealthyFigures {
  const byFinding: SeverityCounts = {};
  let severeRuns = 0;
  let mediumRuns = 0;
  for (let i = 0; i < runs; i++) {
    const seed = firstSeed + i;
    const findings = detectTrainingFindings(parseTrainingArtifact(healthyHistory(seed, HEALTHY_KINDS[i % HEALTHY_KINDS.length]!)));
    if (findings.some((f) => severityRank(f.severity) <= severityRank("high"))) severeRuns++;
    if (findings.some((f) => severityRank(f.severity) <= severityRank("medium"))) mediumRuns++;
    for (const f of findings) {
      const counts = (byFinding[f.id] ??= {});
      counts[f.severity] = (counts[f.severity] ?? 0) + 1;
    }
  }
  return { runs, severeRuns, mediumRuns, byFinding };
}

export interface FaultFigures {
  fault: FaultType;
  finding: string;
  minSeverity: Severity;
  cases: number;
  /** Cases where the expected finding fired at `minSeverity` or worse, and at any severity. */
  found: number;
  foundAnySeverity: number;
}

/** Injects one fault type into `cases` seeded histories with severity knobs spread over [lo, hi]. */
export function measureFault(fault: FaultType, cases: number, lo: number, hi: number, firstSeed = 10_000): FaultFigures {
  const spec = FAULTS[fault];
  let found = 0;
  let foundAnySeverity = 0;
  for (let i = 0; i < cases; i++) {
    const s = lo + ((hi - lo) * i) / Math.max(1, cases - 1);
    const findings = detectTrainingFindings(parseTrainingArtifact(faultyHistory(firstSeed + 7919 * i, fault, s)));
    const hit = findings.find((f) => f.id === spec.finding);
    if (hit) foundAnySeverity++;
    if (hit && severityRank(hit.severity) <= severityRank(spec.minSeverity)) found++;
  }
  return { fault, finding: spec.finding, minSeverity: spec.minSeverity, cases, found, foundAnySeverity };
}

/** Strong (knob 0.7–1) and weak (knob 0–0.4) cases of every fault type. */
export function measureFaults(cases: number): Array<{ strong: FaultFigures; weak: FaultFigures }> {
  return FAULT_TYPES.map((fault) => ({ strong: measureFault(fault, cases, 0.7, 1), weak: measureFault(fault, cases, 0, 0.4) }));
}
