import { describe, expect, it } from "vitest";
import type { Finding, Severity } from "../../../domain/result.js";
import { detectorFinding } from "../../../nodes/findings.js";
import { coveredIds, FINDING_ID_KEY, groupByRootCause, groupedParts, type RootCause } from "../../../nodes/root-causes.js";

function finding(id: string, severity: Severity, artifact: string, confidence = 0.7): Finding {
  return detectorFinding({
    id,
    title: `${id} title`,
    description: `${id} description.`,
    evidence: [{ rule_id: id.toUpperCase(), artifact, text: `${id} at ${artifact}.`, observed: 1, threshold: 0.5 }],
    severity,
    confidence,
    recommendation: { action: `fix ${id}`, rationale: "because", category: "data", effort: "low" },
  });
}

const shift: RootCause = {
  ids: ["x.label", "x.dataset", "x.feature"],
  title: "One shift",
  explanation: "One shift, seen three ways:",
  sameCause: (a, b) => a.evidence[0]!.artifact === b.evidence[0]!.artifact,
};

describe("groupByRootCause", () => {
  it("merges the findings of one cause into one, led by the first id present, worst severity, every piece of evidence", () => {
    const other = finding("x.other", "medium", "r0");
    const grouped = groupByRootCause([finding("x.dataset", "high", "r0", 0.6), other, finding("x.label", "medium", "r0", 0.9), finding("x.feature", "low", "r0")], [shift]);
    expect(grouped.map((f) => f.id)).toEqual(["x.other", "x.label"]);
    const merged = grouped[1]!;
    expect(merged).toMatchObject({ title: "One shift", severity: "high", confidence: 0.9, recommendation: { action: "fix x.label" } });
    expect(merged.description).toMatch(/^One shift, seen three ways: x\.label description\. x\.dataset title \(high\): x\.dataset description\. x\.feature title \(low\)/);
    expect(merged.evidence.map((e) => e.values?.[FINDING_ID_KEY])).toEqual(["x.label", "x.dataset", "x.feature"]);
    expect(coveredIds(merged)).toEqual(["x.label", "x.dataset", "x.feature"]);
    // Each part keeps its own severity, for readers that ask about one of them.
    expect(groupedParts(merged)).toEqual([
      { id: "x.label", severity: "medium" },
      { id: "x.dataset", severity: "high" },
      { id: "x.feature", severity: "low" },
    ]);
    expect(grouped[0]).toBe(other);
  });

  it("keeps findings of another occurrence apart (sameCause), and leaves a cause met once alone", () => {
    const a = finding("x.label", "high", "r0");
    const b = finding("x.feature", "medium", "r1");
    expect(groupByRootCause([a, b], [shift])).toEqual([a, b]);
    expect(coveredIds(a)).toEqual(["x.label"]);
  });

  it("groups each occurrence on its own: a lead alone in its report does not keep the others of another from merging", () => {
    const label = finding("x.label", "high", "r1");
    const grouped = groupByRootCause([label, finding("x.dataset", "high", "r0"), finding("x.feature", "medium", "r0")], [shift]);
    expect(grouped.map((f) => coveredIds(f))).toEqual([["x.label"], ["x.dataset", "x.feature"]]);
    expect(grouped[0]).toBe(label);
  });

  it("quotes a piece of evidence two findings share once", () => {
    const a = finding("x.dataset", "high", "r0");
    const b = { ...finding("x.feature", "medium", "r0"), evidence: [...a.evidence] };
    const [merged] = groupByRootCause([a, b], [shift]);
    expect(merged!.evidence).toHaveLength(1);
  });

  it("groups again without losing the ids merged the first time", () => {
    const once = groupByRootCause([finding("x.dataset", "high", "r0"), finding("x.feature", "low", "r0")], [shift]);
    const twice = groupByRootCause([...once, finding("x.label", "medium", "r0")], [shift]);
    expect(twice).toHaveLength(1);
    expect(coveredIds(twice[0]!)).toEqual(["x.label", "x.dataset", "x.feature"]);
  });
});
