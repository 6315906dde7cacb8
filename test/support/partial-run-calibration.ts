import { severityRank } from "../../domain/result.js";
import { runExtent } from "../../nodes/training/curves.js";
import { detectTrainingFindings } from "../../nodes/training/detect.js";
import { runUpTo } from "../../nodes/training/detected-at.js";
import type { TrainingRun } from "../../nodes/training/model.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { PARTIAL_RUN, stillRunning } from "../../nodes/training/partial-run.js";
import { FAULTS, type FaultType, faultyHistory } from "./synthetic-faults.js";
import { HEALTHY_KINDS, healthyHistory } from "./synthetic-history.js";

/** The run as a watcher sees it when `step` is the last one logged: the metrics so far, status "running". */
export function runningPrefix(run: TrainingRun, step: number): TrainingRun {
  return { ...runUpTo(run, step), logs: run.logs, meta: { ...run.meta, progress: { ...run.meta.progress, running: true } } };
}

/** Steps at k/n of a run's span, k = 1 … n (the last one is the whole run, still "running"). */
export function prefixSteps(run: TrainingRun, n: number): number[] {
  const { first, last } = runExtent(run);
  return Array.from({ length: n }, (_, k) => first + ((last - first) * (k + 1)) / n);
}

export interface PrefixFalseAlarms {
  runs: number;
  prefixes: number;
  /** Runs with a high or critical finding at any of their prefixes. */
  alarmedRuns: number;
  /** Findings of finished-run detectors that leaked into a running prefix (must stay 0). */
  heldBackLeaks: number;
  /** "<id> at <k>/<n>" of every alarm, for a failing test's message. */
  alarms: string[];
}

/** Every prefix at k/n of `runs` seeded healthy histories, analysed as a run still training. */
export function measurePrefixFalseAlarms(runs: number, prefixes: number, firstSeed = 1): PrefixFalseAlarms {
  const out: PrefixFalseAlarms = { runs, prefixes, alarmedRuns: 0, heldBackLeaks: 0, alarms: [] };
  for (let i = 0; i < runs; i++) {
    const run = parseTrainingArtifact(healthyHistory(firstSeed + i, HEALTHY_KINDS[i % HEALTHY_KINDS.length]!));
    let alarmed = false;
    prefixSteps(run, prefixes).forEach((step, k) => {
      const prefix = runningPrefix(run, step);
      const running = stillRunning(prefix);
      for (const f of detectTrainingFindings(prefix)) {
        const behaviour = PARTIAL_RUN[f.id];
        if (running && behaviour?.mode === "held_back" && !behaviour.unless?.(f)) out.heldBackLeaks++;
        if (severityRank(f.severity) <= severityRank("high")) {
          alarmed = true;
          out.alarms.push(`${f.id} at ${k + 1}/${prefixes} of seed ${firstSeed + i}`);
        }
      }
    });
    if (alarmed) out.alarmedRuns++;
  }
  return out;
}

export interface AlarmTiming {
  fault: FaultType;
  finding: string;
  mode: string;
  cases: number;
  /** Cases whose finding fired on the whole run. */
  found: number;
  /** Median over found cases of (detected_at_step − first step) / span: the share of the run elapsed at the alarm. */
  medianElapsed: number | null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * When a strong injected fault (s ∈ [0.7, 1]) is first reported on a run still training: its finding's
 * `detected_at_step` as a share of the run (the earliest prefix that yields it), 1 for detectors that wait for the end.
 */
export function measureAlarmTiming(fault: FaultType, cases: number, firstSeed = 10_000): AlarmTiming {
  const spec = FAULTS[fault];
  const mode = PARTIAL_RUN[spec.finding]?.mode ?? "fires";
  const elapsed: number[] = [];
  let found = 0;
  for (let i = 0; i < cases; i++) {
    const run = parseTrainingArtifact(faultyHistory(firstSeed + 7919 * i, fault, 0.7 + (0.3 * i) / Math.max(1, cases - 1)));
    const hit = detectTrainingFindings(run).find((f) => f.id === spec.finding);
    if (!hit) continue;
    found++;
    const { first, last } = runExtent(run);
    const step = hit.evidence[0]?.detected_at_step;
    // A finding from log lines alone has no step: it is left out of the median (null when all are).
    if (mode === "held_back") elapsed.push(1);
    else if (typeof step === "number" && last > first) elapsed.push((step - first) / (last - first));
  }
  return { fault, finding: spec.finding, mode, cases, found, medianElapsed: median(elapsed) };
}
