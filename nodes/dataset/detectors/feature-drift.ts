import { fmt, listNames } from "../../../artifacts/json-values.js";
import type { Severity } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import type { FeatureDrift } from "../model.js";
import { isIdLike } from "./id-like-column.js";

/** PSI bands of credit-scoring practice (Siddiqi 2006; Yurdakul 2018): < 0.1 stable, 0.1–0.25 moderate, ≥ 0.25 significant. */
const PSI_MODERATE = 0.1;
const PSI_SIGNIFICANT = 0.25;
/** Share of compared features with significant drift that makes it a dataset-level shift (Evidently's drift_share default 0.5). */
const DATASET_SHARE = 0.5;

function severityOf(significant: number, moderate: number, compared: number): Severity | null {
  if (significant > 0 && significant / compared >= DATASET_SHARE) return "high";
  if (significant > 0) return "medium";
  return moderate > 0 ? "low" : null;
}

function describeDrift(d: FeatureDrift): string {
  const second = d.ks !== null ? `, KS ${d.ks.toFixed(3)}` : d.totalVariation !== null ? `, total variation ${d.totalVariation.toFixed(3)}` : "";
  return `"${d.column}": PSI ${d.psi.toFixed(3)}${second}`;
}

/**
 * CR-03 from client-computed per-feature drift (train → test): any feature with PSI ≥ 0.25 → medium, ≥ half of
 * the compared features → high, only 0.1–0.25 → low. The target (label shift has its own rule) and identifier
 * columns (their values never repeat across splits by construction) are left out.
 */
export const featureDrift: DatasetDetector = {
  info: {
    id: "dataset.feature_drift",
    rule: "CR-03",
    title: "Feature distributions differ between train and test",
    threshold: "PSI ≥ 0.25 on a feature → medium, on ≥ 50 % of the compared features → high; 0.1–0.25 only → low",
    severities: ["low", "medium", "high"],
    basis: "PSI bands (Siddiqi 2006; Yurdakul 2018); Evidently drift_share 0.5; Rabanser et al. 2019 [K23]",
  },
  detect(stats) {
    const features = new Map(featureColumns(stats).map((c) => [c.name, c]));
    const compared = (stats.drift ?? []).filter((d) => {
      const col = features.get(d.column);
      return d.column !== stats.target && !(col && isIdLike(col));
    });
    const significant = compared.filter((d) => d.psi >= PSI_SIGNIFICANT).sort((a, b) => b.psi - a.psi);
    const moderate = compared.filter((d) => d.psi >= PSI_MODERATE && d.psi < PSI_SIGNIFICANT).sort((a, b) => b.psi - a.psi);
    const severity = severityOf(significant.length, moderate.length, compared.length);
    if (!severity) return [];
    const flagged = [...significant, ...moderate];
    const worst = flagged[0]!;
    const names = listNames((significant.length ? significant : moderate).map((d) => d.column));
    return [
      detectorFinding({
        id: this.info.id,
        title: severity === "high" ? "Most features drift between train and test" : "Feature distributions differ between train and test",
        description: `${significant.length ? `${fmt(significant.length)} of ${fmt(compared.length)} compared features shift significantly` : `${fmt(moderate.length)} of ${fmt(compared.length)} compared features shift moderately`} from train to test (${names}; largest PSI ${worst.psi.toFixed(2)} on "${worst.column}"). A model fitted on train meets other inputs at evaluation, so its test score may not reflect what it learned, and deployment data may differ again.`,
        evidence: flagged.slice(0, 10).map((d) => ({
          rule_id: this.info.rule,
          artifact: d.path,
          text: `${describeDrift(d)} (moderate ≥ ${PSI_MODERATE}, significant ≥ ${PSI_SIGNIFICANT}).`,
          observed: Number(d.psi.toFixed(4)),
          threshold: d.psi >= PSI_SIGNIFICANT ? PSI_SIGNIFICANT : PSI_MODERATE,
          values: { column: d.column, ...(d.ks !== null ? { ks: Number(d.ks.toFixed(4)) } : {}), ...(d.totalVariation !== null ? { total_variation: Number(d.totalVariation.toFixed(4)) } : {}) },
        })),
        severity,
        confidence: scoreConfidence({ strength: worst.psi, threshold: PSI_SIGNIFICANT }),
        recommendation: {
          action: `Check how train and test were sampled (time, source, preprocessing parity) for ${listNames(flagged.map((d) => d.column), 3)}; re-split at random or by group if the shift is accidental, otherwise evaluate on data like deployment and consider importance weighting.`,
          rationale: "Univariate two-sample statistics already show the inputs differ between splits; such shift is the most common silent cause of a score that does not carry over (Rabanser et al. 2019).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
