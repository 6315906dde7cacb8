import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { TrainingRun } from "../model.js";
import { runExtent } from "../curves.js";
import type { TrainingDetector } from "./detector.js";

const KIND = { records: "TensorBoard event file", rows: "metrics CSV" } as const;

/**
 * DC-01: the metrics file ends partway through a TFRecord (its length says more bytes follow) or a CSV row (no line
 * break, fewer cells than the header). The points before the cut are analysed; the steps after it are missing,
 * so every judgement of the run's end (plateau, overfitting, a late NaN) may be wrong. A run still training is
 * exempt: its writer is mid-record all the time (partial-run.ts holds the finding back).
 */
function detectTruncatedLog(run: TrainingRun): Finding[] {
  const cut = run.meta.truncated;
  if (!cut) return [];
  const what = KIND[cut.unit];
  const file = cut.file ? ` (${cut.file})` : "";
  const text = `The ${what}${file} ends partway through a ${cut.unit === "records" ? "record" : "row"}: ${cut.recordsRead} complete ${cut.unit} were read, ${cut.bytesLeft} byte${cut.bytesLeft === 1 ? "" : "s"} after them belong to one cut off.`;
  return [
    detectorFinding({
      id: "training.truncated_log",
      title: "The metrics log is cut off",
      description: `${text} The file was copied while the training was writing it, or the job was killed or ran out of disk: the analysis covers the run up to step ${runExtent(run).last} only.`,
      evidence: [
        {
          rule_id: "DC-01",
          artifact: "training_artifacts.metrics",
          text,
          observed: cut.bytesLeft,
          threshold: 0,
          n_points: cut.recordsRead,
          values: { file: cut.file, unit: cut.unit, records_read: cut.recordsRead, bytes_left: cut.bytesLeft, last_step_read: runExtent(run).last },
        },
      ],
      severity: "medium",
      confidence: 0.9,
      recommendation: {
        action: "Copy the log again once the training has finished writing it (or from the job's own storage), and check that the job ended normally; re-run the analysis on the complete file.",
        rationale: "Findings about the end of the run (plateau, overfitting, a late NaN, early stopping) rest on steps that are missing from a cut-off log.",
        category: "data",
        effort: "low",
      },
    }),
  ];
}

export const truncatedLog: TrainingDetector = {
  info: {
    id: "training.truncated_log",
    rule: "DC-01",
    title: "Metrics log cut off",
    threshold: "a TensorBoard event file ending inside a record, or a metrics CSV whose last line has no line break and fewer cells than the header; not while the run is still training",
    severities: ["medium"],
    basis: "TFRecord framing (length, CRC-32C, data, CRC-32C); RFC 4180 §2 (each record ends with a line break)",
  },
  detect: detectTruncatedLog,
};
