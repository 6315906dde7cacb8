import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { pct } from "../../../artifacts/json-values.js";

const MEDIUM_V = 0.1;
const HIGH_V = 0.15;

/** Cramér's V of a 2×K table (two splits' class counts): √(χ²/n), 0 for identical mixes, 1 for disjoint ones. */
export function cramersV(a: Record<string, number>, b: Record<string, number>): number {
  const labels = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const na = labels.reduce((s, l) => s + (a[l] ?? 0), 0);
  const nb = labels.reduce((s, l) => s + (b[l] ?? 0), 0);
  const n = na + nb;
  if (na === 0 || nb === 0 || labels.length < 2) return 0;
  let chi2 = 0;
  for (const l of labels) {
    const col = (a[l] ?? 0) + (b[l] ?? 0);
    if (col === 0) continue;
    for (const [obs, rowTotal] of [[a[l] ?? 0, na], [b[l] ?? 0, nb]] as const) {
      const expected = (rowTotal * col) / n;
      chi2 += (obs - expected) ** 2 / expected;
    }
  }
  return Math.sqrt(chi2 / n);
}

/** The label whose share differs most between two splits. */
function largestShareGap(a: Record<string, number>, b: Record<string, number>): { label: string; from: number; to: number } {
  const sa = Object.values(a).reduce((s, n) => s + n, 0);
  const sb = Object.values(b).reduce((s, n) => s + n, 0);
  let best = { label: "", from: 0, to: 0 };
  for (const l of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const from = (a[l] ?? 0) / sa;
    const to = (b[l] ?? 0) / sb;
    if (Math.abs(to - from) > Math.abs(best.to - best.from)) best = { label: l, from, to };
  }
  return best;
}

const PAIRS = [
  ["val", "test"],
  ["train", "test"],
  ["train", "val"],
] as const;

/**
 * Label-mix difference between splits (the dataset-side view of CR-05): Cramér's V of the class counts ≥ 0.1 →
 * medium, ≥ 0.15 (Deepchecks LabelDrift default) → high. Val vs test matters most: it says whether model
 * selection on val transfers to test.
 */
export const splitLabelShift: DatasetDetector = {
  info: {
    id: "dataset.split_label_shift",
    rule: "CR-05",
    title: "Class mix differs between splits",
    threshold: "Cramér's V of per-split class counts ≥ 0.1 → medium, ≥ 0.15 → high",
    severities: ["medium", "high"],
    basis: "Deepchecks LabelDrift condition 0.15 (Cramér's V) [P-Deepchecks]; label shift [K24]",
  },
  detect(stats) {
    const measured = PAIRS.flatMap(([x, y]) => {
      const a = stats.classCounts[x];
      const b = stats.classCounts[y];
      return a && b ? [{ x, y, v: cramersV(a, b), gap: largestShareGap(a, b) }] : [];
    });
    const shifted = measured.filter((m) => m.v >= MEDIUM_V);
    const worst = shifted.reduce<(typeof shifted)[number] | null>((w, m) => (!w || m.v > w.v ? m : w), null);
    if (!worst) return [];
    const valTest = shifted.find((m) => m.x === "val" && m.y === "test");
    const lead = valTest ?? worst;
    return [
      detectorFinding({
        id: this.info.id,
        title: "Class mix differs between splits",
        description: `The class mix of ${lead.y} differs from ${lead.x} (Cramér's V ${lead.v.toFixed(2)}; "${lead.gap.label}" is ${pct(lead.gap.from)} of ${lead.x} but ${pct(lead.gap.to)} of ${lead.y}).${valTest ? " Validation does not represent test, so model selection on val may not transfer." : ""}`,
        evidence: shifted.map((m) => ({
          rule_id: this.info.rule,
          artifact: `${stats.classPath}`,
          text: `${m.x} vs ${m.y}: Cramér's V ${m.v.toFixed(3)} (medium ≥ ${MEDIUM_V}, high ≥ ${HIGH_V}); largest share change "${m.gap.label}" ${pct(m.gap.from)} → ${pct(m.gap.to)}.`,
          observed: Number(m.v.toFixed(4)),
          threshold: m.v >= HIGH_V ? HIGH_V : MEDIUM_V,
          values: { from_split: m.x, to_split: m.y, label: m.gap.label, share_from: Number(m.gap.from.toFixed(4)), share_to: Number(m.gap.to.toFixed(4)) },
        })),
        severity: worst.v >= HIGH_V ? "high" : "medium",
        confidence: scoreConfidence({ strength: worst.v, threshold: MEDIUM_V }),
        recommendation: {
          action: "Build validation from the same distribution as test (or re-split stratified if the difference is accidental); if the shift is real, re-weight class priors (BBSE) and report per-class metrics.",
          rationale: "When class priors differ between splits, scores measured on one do not carry over to the other (Lipton et al. 2018).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
