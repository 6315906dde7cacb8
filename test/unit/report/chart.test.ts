import { describe, expect, it } from "vitest";
import type { Finding } from "../../../domain/result.js";
import { renderChart } from "../../../report/chart.js";
import { chartMarkers } from "../../../report/markers.js";
import { summarizeCurves } from "../../../report/curves.js";

function finding(id: string, artifact: string, window: [number, number] | null): Finding {
  return {
    id,
    title: `title of ${id}`,
    description: "",
    evidence: [{ rule_id: "TH-13", artifact, text: "", window }],
    severity: "medium",
    confidence: 0.7,
    source: "detector",
    citations: [],
    recommendation: null,
  };
}

const steps = Array.from({ length: 60 }, (_, i) => i * 10);
const curves = summarizeCurves([
  { name: "train_loss", steps, values: steps.map((s) => 2 / (1 + s / 100)) },
  { name: "val_loss", steps, values: steps.map((s) => 1 + ((s - 300) / 300) ** 2) },
  { name: "val_acc", steps, values: steps.map((s) => 0.5 + s / 2000) },
  { name: "lr", steps, values: steps.map(() => 1e-3) },
]);

describe("training chart", () => {
  it("draws one panel per scale with a path per series and a band per marker", () => {
    const markers = chartMarkers([finding("training.overfitting", "training_artifacts.metrics:val_loss", [300, 590])]);
    const svg = renderChart(curves, markers).text;
    expect([...svg.matchAll(/data-panel="(\w+)"/g)].map((m) => m[1])).toEqual(["loss", "metric", "lr"]);
    expect([...svg.matchAll(/data-series="(\w+)"/g)].map((m) => m[1])).toEqual(["val_loss", "train_loss", "val_acc", "lr"]);
    expect(svg.match(/<g class="marker">/g)).toHaveLength(3);
    // The band spans steps 300–590 of a 0–590 axis drawn between x=60 and x=944.
    expect(svg).toContain('<rect x="509.5" y="26" width="434.5"');
  });

  it("breaks a line where the run logged a non-finite value and flags the step", () => {
    const broken = summarizeCurves([{ name: "train_loss", steps: [0, 1, 2, 3], values: [1, 0.9, Number.NaN, 0.7] }]);
    const svg = renderChart(broken, []).text;
    expect(svg).toMatch(/<path d="M[\d.,]+L[\d.,]+M[\d.,]+"/);
    expect(svg).toContain("<title>train_loss not finite at step 2</title>");
  });
});
