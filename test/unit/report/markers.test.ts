import { describe, expect, it } from "vitest";
import type { Finding } from "../../../domain/result.js";
import { chartMarkers, layoutMarkers, renderMarkerBands } from "../../../report/markers.js";
import { linearScale } from "../../../report/scale.js";

function finding(id: string, artifact: string, window: [number, number] | null, severity: Finding["severity"] = "medium"): Finding {
  return { id, title: `title of ${id}`, description: "", evidence: [{ rule_id: "TH-13", artifact, text: "", window }], severity, confidence: 0.7, source: "detector", citations: [], recommendation: null };
}

const x = linearScale([0, 1000], [60, 944]);

describe("chart markers", () => {
  it("marks the findings whose evidence is a window of a training curve, numbered in order", () => {
    const markers = chartMarkers([
      finding("training.overfitting", "training_artifacts.metrics:val_loss", [590, 300]),
      finding("dataset.imbalance", "dataset_artifacts.statistics", [1, 2]),
      finding("training.nonfinite_loss", "training_artifacts.metrics:train_loss", [420, 420]),
      finding("training.plateau", "training_artifacts.metrics:val_loss", null),
    ]);
    expect(markers.map((m) => [m.label, m.findingId, m.from, m.to])).toEqual([
      [1, "training.overfitting", 300, 590],
      [2, "training.nonfinite_loss", 420, 420],
    ]);
  });

  it("draws one band for findings that share a window, in the colour of the most severe, labels side by side", () => {
    const markers = chartMarkers([
      finding("cross.saved_wrong_checkpoint", "training_artifacts.metrics:val/loss", [700, 1000], "high"),
      finding("training.overfitting", "training_artifacts.metrics:val/loss", [700, 1000], "critical"),
      finding("training.early_stop_opportunity", "training_artifacts.metrics:val/loss", [380, 1000], "low"),
    ]);
    const groups = layoutMarkers(markers, x, [60, 944]);
    expect(groups.map((g) => [g.from, g.markers.map((m) => m.label), g.severity])).toEqual([
      [380, [3], "low"],
      [700, [1, 2], "critical"],
    ]);
    const svg = renderMarkerBands(groups, x, 26, 184).map((b) => b.text).join("");
    expect(svg.match(/<rect /g)).toHaveLength(2);
    expect(svg).toContain('fill="#b3261e" fill-opacity="0.07"');
  });

  it("never lets labels overlap and keeps them inside the plot", () => {
    const markers = chartMarkers(
      [0, 1, 2, 3, 4].map((i) => finding(`f${i}`, "training_artifacts.metrics:loss", [990 + i, 1000])),
    );
    const centres = layoutMarkers(markers, x, [60, 944]).flatMap((g) => g.markers.map((_, i) => g.labelX + i * 21));
    for (let i = 1; i < centres.length; i++) expect(centres[i]! - centres[i - 1]!).toBeGreaterThanOrEqual(2 * 9);
    expect(Math.max(...centres)).toBeLessThanOrEqual(944 - 9);
  });
});
