import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { shareBand, shareEvidence } from "../shares.js";
import { pct } from "../values.js";

const BANDS = { low: 0, high: 0.03, lowSeverity: "medium", highSeverity: "high" } as const;

/** DS-09: identical features with different labels: any → medium, > 3 % → high. */
export const conflictingLabels: DatasetDetector = {
  info: {
    id: "dataset.conflicting_labels",
    rule: "DS-09",
    title: "Identical inputs with different labels",
    threshold: "conflicting share > 0 → medium, > 3 % → high",
    severities: ["medium", "high"],
    basis: "Deepchecks ConflictingLabels (0 allowed) [P-Deepchecks]; confident learning [K21][K22]",
  },
  detect(stats) {
    const c = stats.conflictingLabels;
    const fraction = c?.fraction ?? ((c?.count ?? 0) > 0 ? Number.EPSILON : null);
    if (!c || fraction === null) return [];
    const band = shareBand(fraction, BANDS);
    if (!band) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Same inputs, different labels",
        description: `${c.fraction !== null ? pct(c.fraction, 2) + " of the rows" : "Some rows"} share identical features but carry different labels: either labelling errors or features that cannot tell the classes apart.`,
        evidence: [shareEvidence(this.info.rule, c, "rows with conflicting labels", band.threshold)],
        severity: band.severity,
        confidence: scoreConfidence({ strength: c.fraction ?? 0.03, threshold: 0.03 }),
        recommendation: {
          action: "Review and adjudicate the conflicting rows (or relabel with confident learning); if both labels are legitimate, add the feature that distinguishes them.",
          rationale: "Contradictory labels cap the accuracy any model can reach and add noise to training (Northcutt et al. 2021).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
