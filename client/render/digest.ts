import { z } from "zod";
import {
  type AnalysisResponseBody,
  compareFindings,
  type Finding,
  RecommendationSchema,
  SEVERITIES,
  type Severity,
} from "../../domain/result.js";

/** A merged recommendation of `additional_outputs.recommendations` (the advisor adds its rank and themes). */
const MergedRecommendationSchema = RecommendationSchema.extend({ priority: z.number().optional() });
const CitationSchema = z.looseObject({ id: z.string(), title: z.string().optional(), url: z.string().optional(), source: z.string().optional() });

export type MergedRecommendation = z.infer<typeof MergedRecommendationSchema>;
export type Citation = z.infer<typeof CitationSchema>;

/** What every rendering shows, drawn once from the response. */
export interface Digest {
  datasetName: string | null;
  summary: string | null;
  /** Every agent's findings, most severe first. */
  findings: Finding[];
  counts: Record<Severity, number>;
  recommendations: MergedRecommendation[];
  citations: Map<string, Citation>;
  failures: Array<{ agent: string; message: string }>;
  agents: number;
}

/** Items of a list that parse; a malformed one is left out rather than failing the whole rendering. */
function parseEach<T>(schema: z.ZodType<T>, value: unknown): T[] {
  return Array.isArray(value) ? value.flatMap((v) => {
    const p = schema.safeParse(v);
    return p.success ? [p.data] : [];
  }) : [];
}

export function digestResponse(response: AnalysisResponseBody): Digest {
  const findings = Object.values(response.agent_results).flatMap((r) => r.findings).sort(compareFindings);
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<Severity, number>;
  const recommendations = parseEach(MergedRecommendationSchema, response.additional_outputs.recommendations)
    .sort((a, b) => (a.priority ?? Number.MAX_SAFE_INTEGER) - (b.priority ?? Number.MAX_SAFE_INTEGER));
  const citations = new Map(parseEach(CitationSchema, response.additional_outputs.citations).map((c) => [c.id, c]));
  return {
    datasetName: response.dataset_name,
    summary: response.summary,
    findings,
    counts,
    recommendations,
    citations,
    failures: Object.entries(response.error_messages).map(([agent, message]) => ({ agent, message })).sort((a, b) => a.agent.localeCompare(b.agent)),
    agents: Object.keys(response.agent_results).length,
  };
}

/** "13 findings: 5 high, 3 medium, 4 low, 1 info" (bands with none left out). */
export function countLine(d: Digest): string {
  const bands = SEVERITIES.filter((s) => d.counts[s] > 0).map((s) => `${d.counts[s]} ${s}`);
  return `${d.findings.length} finding${d.findings.length === 1 ? "" : "s"}${bands.length > 0 ? `: ${bands.join(", ")}` : ""}`;
}

/** The severities shown with their evidence; below them findings get one line each. */
export const DETAILED: readonly Severity[] = ["critical", "high", "medium"];
/** Recommendations shown; the rest are counted ("3 more in --format markdown or json"). */
export const TOP_RECOMMENDATIONS = 5;
