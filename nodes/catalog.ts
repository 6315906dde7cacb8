import type { Severity } from "../domain/result.js";

/** One detector as documented in docs/detectors.md and mapped to knowledge documents. */
export interface DetectorInfo {
  /** The finding id it emits, e.g. "training.overfitting". */
  id: string;
  /** Catalog rule of DETECTORS.md, e.g. "TH-13". */
  rule: string;
  title: string;
  /** The rule and its thresholds in one line. */
  threshold: string;
  severities: Severity[];
  /** Where the threshold comes from (DETECTORS.md source keys or papers). */
  basis: string;
}

/** A text as one Markdown table cell: pipes escaped, line breaks folded. */
export const tableCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The catalog as docs/detectors.md shows it: one row per detector, every field of its record. */
export function catalogTable(detectors: readonly DetectorInfo[]): string {
  const rows = detectors.map((d) => `| \`${d.id}\` | ${d.rule} | ${tableCell(d.title)} | ${tableCell(d.threshold)} | ${d.severities.join(", ")} | ${tableCell(d.basis)} |`);
  return ["| id | rule | title | rule and thresholds | severities | basis |", "|---|---|---|---|---|---|", ...rows].join("\n");
}
