/**
 * The leakage pairs of test/fixtures/client-dataset/leakage/ (scripts/fixtures/leakage_fixtures.py) diagnosed by
 * the client's statistics and the dataset rules, beside Deepchecks 0.19's Feature Label Correlation, Feature Label
 * Correlation Change and Conflicting Labels on the same files (their verdicts, deepchecks.json, written by the
 * fixture script). Prints the markdown table of docs/client-dataset.md ("Compared with Deepchecks").
 * Usage: npx tsx scripts/leakage-vs-deepchecks.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { computeDatasetArtifacts, type DatasetArtifacts } from "../client/dataset/index.js";
import type { Finding } from "../domain/result.js";
import { DATASET_DETECTORS } from "../nodes/dataset/catalog.js";
import { parseDatasetArtifact } from "../nodes/dataset/parse.js";

export const LEAKAGE_ROOT = "test/fixtures/client-dataset/leakage";

/** What a case must give, written with its files before any detector ran. */
export interface LeakageTruth {
  target: string;
  /** Columns DS-13 must name, and no other. */
  flag: string[];
  /** Columns DS-17 must name. */
  split_change?: string[];
  time_leak?: string;
  conflicting_fraction?: number;
}

/** Deepchecks' verdicts on a case, with its default conditions. */
export interface DeepchecksVerdicts {
  feature_label_correlation: { pps: Record<string, number>; flagged: string[] };
  feature_label_correlation_change: { flagged: string[] };
  conflicting_labels: { fraction: number };
}

export interface LeakageDiagnosis {
  truth: LeakageTruth;
  deepchecks: DeepchecksVerdicts;
  artifacts: DatasetArtifacts;
  findings: Finding[];
}

export function leakageCases(): string[] {
  return readdirSync(LEAKAGE_ROOT).sort();
}

/** A case's statistics as the client computes them and the dataset rules' findings on them. */
export async function diagnoseLeakageCase(name: string, timeColumn?: string): Promise<LeakageDiagnosis> {
  const read = <T>(file: string) => JSON.parse(readFileSync(join(LEAKAGE_ROOT, name, file), "utf8")) as T;
  const truth = read<LeakageTruth>("truth.json");
  const artifacts = await computeDatasetArtifacts({
    data: join(LEAKAGE_ROOT, name, "train.csv"),
    test: join(LEAKAGE_ROOT, name, "test.csv"),
    target: truth.target,
    threads: 1,
    ...(timeColumn ? { timeColumn } : {}),
  });
  const stats = parseDatasetArtifact(artifacts as unknown as Record<string, unknown>);
  return { truth, deepchecks: read<DeepchecksVerdicts>("deepchecks.json"), artifacts, findings: DATASET_DETECTORS.flatMap((d) => d.detect(stats)) };
}

/** The columns a rule's finding names in its evidence, sorted. */
export function columnsNamed(findings: Finding[], id: string): string[] {
  return findings.filter((f) => f.id === id).flatMap((f) => f.evidence.map((e) => String(e.values?.column))).sort();
}

async function main(): Promise<void> {
  const list = (xs: string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(", ") : "—");
  console.log("| Case | Ours: DS-13 | Deepchecks FLC (PPS ≥ 0.8) | Ours: DS-17 | Deepchecks FLC Change (Δ ≥ 0.2 or train ≥ 0.7) | Ours: conflicting | Deepchecks: conflicting | Ours: DS-18 |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const name of leakageCases()) {
    const d = await diagnoseLeakageCase(name);
    const conflicts = d.artifacts.statistics.conflicting_labels?.fraction ?? 0;
    const time = d.findings.find((f) => f.id === "dataset.time_split_leak");
    console.log(
      `| ${name} | ${list(columnsNamed(d.findings, "dataset.label_predictive_feature"))} | ${list(d.deepchecks.feature_label_correlation.flagged)} | ${list(columnsNamed(d.findings, "dataset.label_signal_split_change"))} | ${list(d.deepchecks.feature_label_correlation_change.flagged)} | ${(100 * conflicts).toFixed(2)} % | ${(100 * d.deepchecks.conflicting_labels.fraction).toFixed(2)} % | ${time ? `\`${String(time.evidence[0]?.values?.column)}\` (${time.severity})` : "—"} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
