import { describe, expect, it } from "vitest";
import { buildAgentResult } from "../../../nodes/agent-result.js";
import { templateSummary } from "../../../nodes/integrate/summary.js";
import { finding } from "../../support/cross-evidence.js";

describe("templateSummary", () => {
  it("lists the top problems most severe first, with the numbers of their first evidence", () => {
    const results = { A: buildAgentResult("A", [finding("dataset.missing_values", "low"), finding("training.overfitting", "medium")], ["x"], null, null) };
    const summary = templateSummary(results, [finding("cross.saved_wrong_checkpoint", "high", 0.9)])!;
    expect(summary.split("\n")).toEqual([
      "2 issue(s) need attention, most severe first:",
      "1. [high] saved wrong checkpoint (cross.saved_wrong_checkpoint evidence).",
      "2. [medium] overfitting (training.overfitting evidence).",
    ]);
  });

  it("says nothing significant was found, naming minor notes", () => {
    const results = {
      A: buildAgentResult("A", [finding("dataset.missing_values", "low")], ["statistics", "metadata"], null, null),
      B: buildAgentResult("B", [], ["metrics", "params", "logs"], null, null),
    };
    expect(templateSummary(results, [])).toBe("No significant problem found in 2 artifact group(s). 1 minor note(s): missing values.");
  });

  it("warns that the summary is incomplete when agents failed", () => {
    const results = { A: buildAgentResult("A", [], ["x"], "boom", null) };
    expect(templateSummary(results, [], { A: "boom" })).toMatch(/Incomplete: A reported errors/);
  });

  it("is null when nothing was analyzed", () => {
    expect(templateSummary({}, [])).toBeNull();
  });
});
