import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector } from "../detector.js";
import { evaluationSplits } from "../splits.js";
import { fmt, listNames } from "../../../artifacts/json-values.js";

/** DS-03: a label present in val/test but absent from train can never be predicted correctly. */
export const unseenLabels: DatasetDetector = {
  info: {
    id: "dataset.unseen_labels",
    rule: "DS-03",
    title: "Evaluation labels never seen in training",
    threshold: "any label with count > 0 in val/test and 0 in train",
    severities: ["high"],
    basis: "Deepchecks NewLabelTrainTest (0 new labels allowed) [P-Deepchecks]",
  },
  detect(stats) {
    const train = stats.classCounts.train;
    if (!train) return [];
    const unseen = evaluationSplits(Object.keys(stats.classCounts)).flatMap((split) =>
      Object.entries(stats.classCounts[split] ?? {})
        .filter(([label, n]) => n > 0 && !(train[label]! > 0))
        .map(([label, n]) => ({ split, label, n })),
    );
    if (unseen.length === 0) return [];
    const labels = [...new Set(unseen.map((u) => u.label))];
    const rows = unseen.reduce((s, u) => s + u.n, 0);
    return [
      detectorFinding({
        id: this.info.id,
        title: "Evaluation data has labels missing from train",
        description: `${listNames(labels)} appear in ${[...new Set(unseen.map((u) => u.split))].join(" and ")} (${fmt(rows)} rows) but never in train, so the model cannot predict them and evaluation on those rows is guaranteed wrong.`,
        evidence: unseen.slice(0, 10).map((u) => ({
          rule_id: this.info.rule,
          artifact: `${stats.classPath}.${u.split}`,
          text: `"${u.label}": ${fmt(u.n)} rows in ${u.split}, 0 in train.`,
          observed: u.n,
          threshold: 0,
        })),
        severity: "high",
        confidence: scoreConfidence({ strength: 2, threshold: 1 }),
        recommendation: {
          action: "Re-split with stratification by label (or group) so every class appears in train, or drop classes that cannot be learned and report per-class metrics.",
          rationale: "A class absent from training is a guaranteed error on every evaluation row that has it.",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
