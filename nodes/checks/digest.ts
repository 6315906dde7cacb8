import { clip } from "../../artifacts/json-values.js";
import type { CheckOutcome, ChecksReport } from "./model.js";

const MAX_OUTCOMES = 40;
const MAX_DETAILS = 8;
const STATUS_ORDER = ["fail", "error", "warn", "skipped", "none", "pass"] as const;

function round(n: number | null): number | null {
  return n === null || !Number.isFinite(n) ? n : Number(n.toPrecision(4));
}

function outcomeDigest(o: CheckOutcome) {
  return {
    tool: o.tool, suite: o.report, check: clip(o.name, 100), status: o.status, category: o.category, condition: o.condition && clip(o.condition, 160),
    observed: round(o.observed), threshold: round(o.threshold), columns: o.columns.slice(0, 10), message: clip(o.message, 240),
    details: [...o.details].sort((a, b) => Number(b.flagged) - Number(a.flagged) || (b.score ?? 0) - (a.score ?? 0)).slice(0, MAX_DETAILS)
      .map((d) => ({ name: d.name, score: round(d.score), flagged: d.flagged, ...(d.subject ? { subject: d.subject } : {}), ...(d.importance !== undefined ? { importance: round(d.importance) } : {}) })),
    ...(o.notApplicable ? { not_applicable: true } : {}),
  };
}

/** A compact, bounded view for the language model: report list, counts, and the top checks (failures first). */
export function digestChecks(report: ChecksReport) {
  const ordered = [...report.outcomes].sort((a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status));
  const counts = Object.fromEntries(STATUS_ORDER.map((s) => [s, report.outcomes.filter((o) => o.status === s).length]));
  return {
    reports: report.reports.map((r) => ({ tool: r.tool, format: r.format, name: r.name })),
    counts,
    outcomes: ordered.slice(0, MAX_OUTCOMES).map(outcomeDigest),
    omitted: Math.max(0, ordered.length - MAX_OUTCOMES),
    suites_skipped: report.suitesSkipped,
    row_counts: report.rowCounts,
    unreadable: report.unreadable.slice(0, 5),
  };
}

/** What was analyzed: one line per report with its verdict counts. */
export function describeChecks(report: ChecksReport): string[] {
  return report.reports.map((r) => {
    const mine = report.outcomes.filter((o) => o.path === r.path || o.path.startsWith(`${r.path}.`) || o.path.startsWith(`${r.path}[`));
    const counts = (["fail", "warn", "error", "pass"] as const).map((s) => [s, mine.filter((o) => o.status === s).length] as const).filter(([, n]) => n > 0);
    const name = r.name ? ` "${r.name}"` : "";
    return `${r.path} (${r.format}${name}, ${mine.length} checks${counts.length ? `: ${counts.map(([s, n]) => `${n} ${s}`).join(", ")}` : ""})`;
  });
}
