import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { shareEvidence } from "../shares.js";
import { fmt, pct } from "../values.js";

const HIGH_FRACTION = 0.05;

/** DS-08: rows shared between train and an evaluation split: any → medium, > 5 % of the evaluation split → high. */
export const trainTestOverlap: DatasetDetector = {
  info: {
    id: "dataset.train_test_overlap",
    rule: "DS-08",
    title: "Rows shared between train and evaluation",
    threshold: "any overlap → medium; > 5 % of the evaluation split → high",
    severities: ["medium", "high"],
    basis: "Deepchecks TrainTestSamplesMix 5 %; CIFAR: 3.3 %/10 % of test duplicated in train, 9–14 % relative accuracy drop [K31]",
  },
  detect(stats) {
    const o = stats.trainTestOverlap;
    if (!o || !((o.count ?? 0) > 0 || (o.fraction ?? 0) > 0)) return [];
    const high = (o.fraction ?? 0) > HIGH_FRACTION;
    const amount = o.fraction !== null ? `${pct(o.fraction)} of the evaluation rows` : `${fmt(o.count ?? 0)} rows`;
    return [
      detectorFinding({
        id: this.info.id,
        title: "Evaluation rows also appear in train",
        description: `${amount} also appear in the training data, so the evaluation partly measures memorization and overstates performance.`,
        evidence: [shareEvidence(this.info.rule, o, "rows shared between train and evaluation", high ? HIGH_FRACTION : 0)],
        severity: high ? "high" : "medium",
        confidence: o.fraction !== null ? scoreConfidence({ strength: o.fraction, threshold: HIGH_FRACTION }) : 0.7,
        recommendation: {
          action: "Remove the shared rows from the evaluation split (or split by group or time) and re-evaluate on the clean split.",
          rationale: "Test rows seen in training inflate scores; removing CIFAR's near-duplicates cut accuracy by 9–14 % relative (Barz & Denzler 2020).",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
