import { describe, expect, it } from "vitest";
import { palette } from "../../../client/render/colour.js";
import { renderCompareMarkdown, renderCompareText } from "../../../client/render/compare.js";
import { CompareResponseSchema } from "../../../domain/result.js";

/** A comparison answer as the service sends it: one run at chance level (high), one still improving (medium). */
const body = CompareResponseSchema.parse({
  dataset_name: "digits",
  objective: { metric: "val/loss", direction: "minimize", inferred: true },
  runs: [
    {
      name: "sgd-lr1e-5",
      status: "ok",
      failure: null,
      objective: { best: 2.3, final: 2.3 },
      findings_count: 2,
      top_findings: [
        { id: "training.chance_level", title: "Accuracy at chance level", severity: "high", confidence: 0.9 },
        { id: "training.plateau", title: "Loss plateau", severity: "low", confidence: 0.6 },
      ],
    },
    { name: "adam-slow", status: "ok", failure: null, objective: { best: 0.4, final: 0.4 }, findings_count: 1, top_findings: [{ id: "training.still_improving", title: "Still improving at the last evaluation: undertrained", severity: "medium", confidence: 0.8 }] },
    { name: "adam", status: "ok", failure: null, objective: { best: 0.2, final: 0.21 }, findings_count: 1, top_findings: [{ id: "training.early_stop_opportunity", title: "Training continued long after validation saturated", severity: "low", confidence: 0.7 }] },
  ],
  findings: [],
  summary: "3 run(s) compared.",
  recommendations: [],
  citations: [],
  baseline_comparison: null,
  error_messages: {},
});

describe("ml-diagnose compare's text and Markdown reports", () => {
  it("list the runs' own findings at high or above and the runs still improving, as --format json has them", () => {
    const text = renderCompareText(body, palette(false));
    expect(text).toContain("Runs' own findings");
    expect(text).toMatch(/HIGH\s+sgd-lr1e-5: Accuracy at chance level \[training\.chance_level\]/);
    expect(text).toMatch(/MEDIUM\s+adam-slow: Still improving at the last evaluation: undertrained \[training\.still_improving\]/);
    expect(text).not.toContain("training.plateau");
    expect(text).not.toContain("training.early_stop_opportunity");
    const markdown = renderCompareMarkdown(body);
    expect(markdown).toContain("| sgd-lr1e-5 | high | Accuracy at chance level (`training.chance_level`) |");
    expect(markdown).toContain("| adam-slow | medium | Still improving at the last evaluation: undertrained (`training.still_improving`) |");
    expect(markdown).not.toContain("training.plateau");
  });

  it("leave the section out when no run has such a finding", () => {
    const quiet = { ...body, runs: [body.runs[2]!] };
    expect(renderCompareText(quiet, palette(false))).not.toContain("Runs' own findings");
    expect(renderCompareMarkdown(quiet)).not.toContain("Runs' own findings");
  });
});
