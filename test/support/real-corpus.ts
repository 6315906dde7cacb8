// The check-report part of the real-output corpus (test/fixtures/real/<group>/<item>/, written by
// scripts/fixtures/real/*_corpus.py): each item's reports as the tools wrote them, and expected.json, the findings
// written down before the detectors were changed. Read here once for the test and for docs/detectors.md.
import { readdirSync, readFileSync } from "node:fs";
import { z } from "zod";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { type Finding, SeveritySchema, type Severity, severityRank } from "../../domain/result.js";
import { prioritizeFindings } from "../../nodes/findings.js";
import { coveredIds } from "../../nodes/root-causes.js";
import { detectChecksFindings } from "../../nodes/checks/detect.js";
import { checksAnalyzer } from "../../nodes/checks/node.js";

const ROOT = new URL("../fixtures/real/", import.meta.url);

/** Groups of the corpus that hold check reports. */
export const CHECK_REPORT_GROUPS = ["deepchecks", "evidently", "great_expectations"] as const;

/** expected.json, as checks_corpus.py write_item() writes it. */
export const RealExpectationSchema = z.object({
  description: z.string(),
  tool: z.string(),
  /** Healthy data: nothing may reach high. */
  healthy: z.boolean(),
  artifacts: z.array(z.object({ kind: z.literal("checks"), file: z.string(), send_as: z.literal("string").optional() })).min(1),
  /** Findings that must be there, at this severity or worse. */
  expected: z.array(z.object({ id: z.string(), min_severity: SeveritySchema })),
  /** Findings that must not be there at all. */
  absent: z.array(z.string()),
  /** A limit written down with the item; none of the check-report items has one. */
  known_gap: z.string().nullable(),
});
export type RealExpectation = z.infer<typeof RealExpectationSchema>;

export interface RealItem {
  /** "<group>/<item>". */
  name: string;
  expectation: RealExpectation;
  /** The request body the item stands for: every file a report of checks_artifacts, strings left as text. */
  body: Record<string, unknown>;
}

function readItem(group: string, item: string): RealItem {
  const folder = new URL(`${group}/${item}/`, ROOT);
  const expectation = RealExpectationSchema.parse(JSON.parse(readFileSync(new URL("expected.json", folder), "utf8")));
  const reports = expectation.artifacts.map((a) => {
    const text = readFileSync(new URL(a.file, folder), "utf8");
    return a.send_as === "string" ? text : parseTolerantJson(text);
  });
  return { name: `${group}/${item}`, expectation, body: { checks_artifacts: { reports } } };
}

/** Every check-report item of the corpus, in name order. */
export function checkReportItems(): RealItem[] {
  return CHECK_REPORT_GROUPS.flatMap((group) =>
    readdirSync(new URL(`${group}/`, ROOT), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => readItem(group, d.name)),
  ).sort((a, b) => a.name.localeCompare(b.name));
}

export interface RealAnalysis {
  /** The checks analyzer's findings in deterministic mode, as its agent result lists them. */
  findings: Finding[];
  /** What the detectors said before findings sharing a root cause were grouped (same-id merges only). */
  ungrouped: Finding[];
}

/** Decodes the item's body as the server does and runs the checks analyzer's parse and detect steps on it. */
export async function analyzeRealItem(item: RealItem): Promise<RealAnalysis> {
  const context = decodeAnalysisRequest(item.body, "real-corpus");
  const artifact = context.artifacts.find((a) => a.kind === "checks");
  if (!artifact) throw new Error(`${item.name}: the request carries no checks artifact`);
  const input = { artifact, language: context.language, datasetName: context.datasetName, modelName: null };
  const report = await checksAnalyzer.parse(artifact.payload, { input });
  return { findings: prioritizeFindings(checksAnalyzer.detect(report)), ungrouped: prioritizeFindings(detectChecksFindings(report)) };
}

export interface ItemVerdict {
  /** Expected findings present at their severity or worse. */
  hits: Array<{ id: string; expected: Severity; got: Severity }>;
  /** Expected findings missing, or present below their severity (got null when missing). */
  misses: Array<{ id: string; expected: Severity; got: Severity | null }>;
  /** Findings named in `absent` that are there anyway. */
  unwanted: string[];
  /** On a healthy item, findings at high or critical. */
  severeOnHealthy: Finding[];
}

/** Whether `got` is `floor` or worse. */
export function atLeast(got: Severity, floor: Severity): boolean {
  return severityRank(got) <= severityRank(floor);
}

/**
 * Judges an item's findings against its expected.json. A finding merged into another by root-cause grouping counts
 * as present, at the merged finding's severity (its evidence is all there, under the lead's id).
 */
export function judgeItem(expectation: Pick<RealExpectation, "expected" | "absent" | "healthy">, findings: readonly Finding[]): ItemVerdict {
  const verdict: ItemVerdict = { hits: [], misses: [], unwanted: [], severeOnHealthy: [] };
  const covering = (id: string) => findings.find((f) => coveredIds(f).includes(id));
  for (const e of expectation.expected) {
    const got = covering(e.id)?.severity ?? null;
    if (got && atLeast(got, e.min_severity)) verdict.hits.push({ id: e.id, expected: e.min_severity, got });
    else verdict.misses.push({ id: e.id, expected: e.min_severity, got });
  }
  verdict.unwanted = expectation.absent.filter((id) => covering(id) !== undefined);
  if (expectation.healthy) verdict.severeOnHealthy = findings.filter((f) => atLeast(f.severity, "high"));
  return verdict;
}

/** The corpus figures of one tool group (or of all), for docs/detectors.md. */
export interface CorpusFigures {
  group: string;
  items: number;
  healthy: number;
  expected: number;
  /** Expected findings found at their severity or worse. */
  found: number;
  /** Expected findings found at any severity. */
  foundAnySeverity: number;
  /** High or critical findings on healthy items. */
  severeOnHealthy: number;
  /** Findings over all items, before and after root-cause grouping. */
  findingsBefore: number;
  findingsAfter: number;
  /** Items whose expectation records a known gap. */
  knownGaps: number;
  misses: string[];
}

export function emptyFigures(group: string): CorpusFigures {
  return { group, items: 0, healthy: 0, expected: 0, found: 0, foundAnySeverity: 0, severeOnHealthy: 0, findingsBefore: 0, findingsAfter: 0, knownGaps: 0, misses: [] };
}

/** Adds one judged item to a row of figures (shared with the checkpoint items, test/support/real-checkpoint-corpus.ts). */
export function countItem(
  row: CorpusFigures,
  item: { name: string; expectation: Pick<RealExpectation, "expected" | "absent" | "healthy" | "known_gap"> },
  findings: readonly Finding[],
  ungrouped: readonly Finding[],
): void {
  const v = judgeItem(item.expectation, findings);
  row.items++;
  row.healthy += item.expectation.healthy ? 1 : 0;
  row.expected += item.expectation.expected.length;
  row.found += v.hits.length;
  row.foundAnySeverity += v.hits.length + v.misses.filter((m) => m.got !== null).length;
  row.severeOnHealthy += v.severeOnHealthy.length;
  row.findingsBefore += ungrouped.length;
  row.findingsAfter += findings.length;
  row.knownGaps += item.expectation.known_gap ? 1 : 0;
  row.misses.push(...v.misses.map((m) => `${item.name}: ${m.id} (expected ${m.expected}, got ${m.got ?? "nothing"})`));
}

/** Runs every check-report item and counts, per tool group and in all (the last row). */
export async function measureCheckReportCorpus(): Promise<CorpusFigures[]> {
  const rows = new Map<string, CorpusFigures>(CHECK_REPORT_GROUPS.map((g) => [g, emptyFigures(g)]));
  const all = emptyFigures("all");
  for (const item of checkReportItems()) {
    const { findings, ungrouped } = await analyzeRealItem(item);
    for (const row of [rows.get(item.name.split("/")[0]!)!, all]) countItem(row, item, findings, ungrouped);
  }
  return [...rows.values(), all];
}
