import { type Evidence, type Finding, type Severity, SeveritySchema, severityRank } from "../domain/result.js";

/** Evidence values naming the finding a piece of evidence came from, and that finding's own severity, once grouped. */
export const FINDING_ID_KEY = "finding_id";
export const FINDING_SEVERITY_KEY = "finding_severity";

/**
 * Findings that one cause explains (one label shift seen by three checks, one loss rise seen by two training
 * detectors): when two or more of them are present and `sameCause` holds, they become one finding.
 */
export interface RootCause {
  /** Finding ids this cause explains; the first one present leads the merged finding (its id, its recommendation). */
  ids: readonly string[];
  /** Title of the merged finding, e.g. "One shift between training and evaluation data". */
  title: string;
  /** One sentence saying why these are one problem; the merged description opens with it. */
  explanation: string;
  /** Whether a finding shares the lead's occurrence of the cause (same report, same window…); default: always. */
  sameCause?(lead: Finding, other: Finding): boolean;
}

/** Every finding id a (possibly merged) finding stands for: its own, then those of the findings merged into it. */
export function coveredIds(f: Finding): string[] {
  return groupedParts(f).map((p) => p.id);
}

/** The findings a (possibly merged) finding stands for, each with its own severity, the finding itself first. */
export function groupedParts(f: Finding): Array<{ id: string; severity: Severity }> {
  const parts = new Map<string, Severity | null>([[f.id, null]]);
  for (const e of f.evidence) {
    const id = e.values?.[FINDING_ID_KEY];
    const severity = SeveritySchema.safeParse(e.values?.[FINDING_SEVERITY_KEY]);
    if (typeof id === "string" && !parts.get(id)) parts.set(id, severity.success ? severity.data : null);
  }
  return [...parts].map(([id, severity]) => ({ id, severity: severity ?? f.severity }));
}

/** Evidence marked with the finding it came from (kept when it was marked by an earlier grouping). */
function tagged(f: Finding): Evidence[] {
  return f.evidence.map((e) => ({
    ...e,
    values: { ...e.values, [FINDING_ID_KEY]: e.values?.[FINDING_ID_KEY] ?? f.id, [FINDING_SEVERITY_KEY]: e.values?.[FINDING_SEVERITY_KEY] ?? f.severity },
  }));
}

/** One finding for a cause: the worst severity and highest confidence of its parts, every part's evidence once. */
function merge(cause: RootCause, lead: Finding, parts: readonly Finding[]): Finding {
  const worst = parts.reduce((a, b) => (severityRank(b.severity) < severityRank(a.severity) ? b : a));
  const others = parts.filter((p) => p !== lead);
  const seen = new Set<string>();
  const evidence = [lead, ...others].flatMap(tagged).filter((e) => {
    const key = `${e.artifact}\u0000${e.text}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return {
    ...lead,
    title: cause.title,
    description: [cause.explanation, lead.description, ...others.map((p) => `${p.title} (${p.severity}): ${p.description}`)].join(" "),
    evidence,
    severity: worst.severity,
    confidence: Math.max(...parts.map((p) => p.confidence)),
    citations: [...new Set(parts.flatMap((p) => p.citations))],
    recommendation: lead.recommendation ?? worst.recommendation,
  };
}

/**
 * Groups findings that share a root cause, cause by cause: each finding of a cause's ids, in the order of the ids,
 * leads the findings of its other ids that share its occurrence and are not taken yet. Findings no cause covers,
 * and a finding alone with its cause, pass through unchanged; order is kept (a merged finding takes its lead's place).
 */
export function groupByRootCause(findings: readonly Finding[], causes: readonly RootCause[]): Finding[] {
  let out = [...findings];
  for (const cause of causes) {
    const candidates = cause.ids.flatMap((id) => out.filter((f) => f.id === id));
    const taken = new Set<Finding>();
    for (const lead of candidates) {
      if (taken.has(lead)) continue;
      const others = candidates.filter((f) => !taken.has(f) && f.id !== lead.id && (cause.sameCause?.(lead, f) ?? true));
      if (!others.length) continue;
      const parts = [lead, ...others];
      for (const p of parts) taken.add(p);
      const merged = merge(cause, lead, parts);
      out = out.flatMap((f) => (f === lead ? [merged] : parts.includes(f) ? [] : [f]));
    }
  }
  return out;
}
