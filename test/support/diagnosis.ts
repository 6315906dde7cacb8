import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { z } from "zod";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";

/** Helpers for asserting a diagnosis (findings, severities, summary, cited recommendations) on a response body. */

export const SEVERITY_ORDER = ["info", "low", "medium", "high", "critical"] as const;
export type Sev = (typeof SEVERITY_ORDER)[number];
const rank = (s: string) => SEVERITY_ORDER.indexOf(s as Sev);

export interface FindingLike {
  id: string;
  title: string;
  description: string;
  severity: Sev;
  confidence: number;
  evidence: { text: string; values?: Record<string, unknown> }[];
  citations: string[];
  agent: string;
}

/** The bytes of a sample request in test/fixtures/samples (sent as they are, like `curl --data-binary`). */
export const sampleText = (name: string) => readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), "utf8");
/** A sample parsed the way the service parses it (bare NaN/Infinity allowed). */
export const sampleBody = (name: string) => parseTolerantJson(sampleText(name)) as Record<string, unknown>;

/** Every finding of every agent, tagged with its agent. */
export function allFindings(body: any): FindingLike[] {
  return Object.entries<any>(body.agent_results ?? {}).flatMap(([agent, r]) => (r.findings ?? []).map((f: any) => ({ ...f, agent })));
}

export const ids = (body: any) => [...new Set(allFindings(body).map((f) => f.id))].sort();
/**
 * Findings with this id, and findings another one holds after root-cause grouping (nodes/root-causes.ts), each at
 * its own severity: a part of a merged finding answers for its id.
 */
export const findingsWith = (body: any, id: string): FindingLike[] =>
  allFindings(body).flatMap((f) => {
    if (f.id === id) return [f];
    const part = f.evidence.find((e) => e.values?.finding_id === id);
    return part ? [{ ...f, id, severity: (part.values?.finding_severity as Sev | undefined) ?? f.severity }] : [];
  });

/** The most severe severity among findings with this id, or null when absent. */
export function worst(body: any, id: string): Sev | null {
  const fs = findingsWith(body, id);
  if (fs.length === 0) return null;
  return fs.reduce((a, f) => (rank(f.severity) > rank(a) ? f.severity : a), "info" as Sev);
}

/** One-line listing used in failure messages so a failing case shows what the service did say. */
export const listing = (body: any) => allFindings(body).map((f) => `${f.severity} ${f.id}`).join(", ");

/** Finding `id` is present with severity ≥ min (and ≤ max when given). */
export function expectFinding(body: any, id: string, min: Sev, max: Sev = "critical") {
  const sev = worst(body, id);
  expect(sev, `${id} missing; findings: ${listing(body)}`).not.toBeNull();
  expect(rank(sev!), `${id} is ${sev}, expected ≥ ${min}; findings: ${listing(body)}`).toBeGreaterThanOrEqual(rank(min));
  expect(rank(sev!), `${id} is ${sev}, expected ≤ ${max}; findings: ${listing(body)}`).toBeLessThanOrEqual(rank(max));
}

/** Finding `id` is absent, or (with `atMost`) present only at severity ≤ atMost. */
export function expectNoFinding(body: any, id: string, atMost?: Sev) {
  const sev = worst(body, id);
  if (atMost === undefined) expect(sev, `${id} should not be reported; findings: ${listing(body)}`).toBeNull();
  else if (sev !== null) expect(rank(sev), `${id} is ${sev}, expected at most ${atMost}; findings: ${listing(body)}`).toBeLessThanOrEqual(rank(atMost));
}

/** No finding of any id is more severe than `max`. */
export function expectNothingAbove(body: any, max: Sev) {
  const over = allFindings(body).filter((f) => rank(f.severity) > rank(max));
  expect(over.map((f) => `${f.severity} ${f.id}`), `findings above ${max}`).toEqual([]);
}

/** The most severe finding overall (ties: highest confidence), the one the summary should lead with. */
export function topFinding(body: any): FindingLike {
  const all = allFindings(body);
  expect(all.length, "no findings at all").toBeGreaterThan(0);
  return all.reduce((a, f) => (rank(f.severity) > rank(a.severity) || (f.severity === a.severity && f.confidence > a.confidence) ? f : a));
}

/** The summary names the top problem: its first listed issue is one of the most severe findings, by title. */
export function expectSummaryLeadsWith(body: any, acceptableIds: string[]) {
  expect(typeof body.summary, "summary").toBe("string");
  const top = topFinding(body);
  const all = allFindings(body);
  const maxRank = rank(top.severity);
  const candidates = all.filter((f) => rank(f.severity) === maxRank && acceptableIds.includes(f.id));
  expect(candidates.length, `the most severe findings (${top.severity}) should include one of ${acceptableIds.join(", ")}; findings: ${listing(body)}`).toBeGreaterThan(0);
  // The first numbered line of the summary (or its first sentence) must carry the title of one of them.
  const firstLine = (body.summary as string).split("\n").find((l) => /^\s*1\./.test(l)) ?? (body.summary as string).split("\n")[0]!;
  expect(candidates.some((f) => firstLine.includes(f.title)), `summary's first issue "${firstLine}" should name one of: ${candidates.map((f) => f.title).join(" | ")}`).toBe(true);
}

const CitationSchema = z.object({ id: z.string().min(1), title: z.string().min(1), url: z.string().url(), source: z.string().min(1) });

/**
 * Recommendations exist, each cites at least one source, and every citation id used by a recommendation or a
 * finding resolves to an entry of additional_outputs.citations (with a title and a URL).
 */
export function expectCitedRecommendations(body: any, minRecommendations = 1) {
  const ao = body.additional_outputs;
  expect(Array.isArray(ao?.recommendations), "additional_outputs.recommendations").toBe(true);
  expect(ao.recommendations.length).toBeGreaterThanOrEqual(minRecommendations);
  expect(Array.isArray(ao.citations), "additional_outputs.citations").toBe(true);
  const known = new Map<string, unknown>();
  for (const c of ao.citations) {
    const parsed = CitationSchema.safeParse(c);
    expect(parsed.success, `citation ${JSON.stringify(c)}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    known.set(c.id, c);
  }
  for (const r of ao.recommendations) {
    expect(typeof r.action).toBe("string");
    expect(r.action.length).toBeGreaterThan(0);
    expect(r.citations?.length ?? 0, `recommendation without citations: ${r.action}`).toBeGreaterThan(0);
    for (const id of r.citations) expect(known.has(id), `recommendation cites unknown "${id}"`).toBe(true);
  }
  for (const f of allFindings(body)) for (const id of f.citations ?? []) expect(known.has(id), `${f.id} cites unknown "${id}"`).toBe(true);
}

/** Text of every recommendation (action, rationale, merged actions), lower-cased, for topic checks. */
export const recommendationText = (body: any) =>
  (body.additional_outputs?.recommendations ?? [])
    .map((r: any) => [r.action, r.rationale, ...(r.merged_actions ?? [])].join(" "))
    .join("\n")
    .toLowerCase();

/** The response contract of spec §2.2 (the five keys, with their types). */
export const ResponseShape = z
  .object({
    agent_results: z.record(
      z.string(),
      z.object({
        agent_name: z.string(),
        findings: z.array(z.object({ id: z.string(), severity: z.enum(["critical", "high", "medium", "low", "info"]), confidence: z.number().min(0).max(1) }).passthrough()),
        severity: z.enum(["critical", "high", "medium", "low", "info"]),
        confidence: z.number().min(0).max(1),
      }).passthrough(),
    ),
    summary: z.string().nullable(),
    additional_outputs: z.record(z.string(), z.unknown()),
    error_messages: z.record(z.string(), z.string()),
    dataset_name: z.string().nullable(),
  })
  .strict();

/** The original Python client's response model: agent_name plus `analysis` pairs, severity high|medium|low. */
export const LegacyClientResponse = z.object({
  agent_results: z.record(
    z.string(),
    z.object({
      agent_name: z.string(),
      analysis: z.array(
        z.object({
          findings: z.object({ description: z.string(), evidence: z.string(), severity: z.enum(["high", "medium", "low"]), confidence: z.number() }),
          recommendations: z.object({ action: z.string(), rationale: z.string(), confidence: z.number() }),
        }),
      ),
    }),
  ),
  summary: z.string().nullable(),
  error_messages: z.record(z.string(), z.string()),
  dataset_name: z.string().nullable(),
});
