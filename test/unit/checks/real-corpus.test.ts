import { describe, expect, it } from "vitest";
import { FindingSchema } from "../../../domain/result.js";
import { coveredIds } from "../../../nodes/root-causes.js";
import { analyzeRealItem, checkReportItems, judgeItem } from "../../support/real-corpus.js";

// Every check-report item of the real-output corpus (reports written by Evidently, Deepchecks and Great
// Expectations themselves, scripts/fixtures/real/) against the findings written down in its expected.json.
const items = checkReportItems();

describe("checks analyzer on the real-output corpus", () => {
  it("holds every check-report item the generators write", () => {
    expect(items.length).toBeGreaterThanOrEqual(29);
    expect(new Set(items.map((i) => i.name.split("/")[0]))).toEqual(new Set(["deepchecks", "evidently", "great_expectations"]));
  });

  it.each(items.map((i) => [i.name, i] as const))("%s", async (_name, item) => {
    const { findings } = await analyzeRealItem(item);
    for (const f of findings) FindingSchema.parse(f);
    const verdict = judgeItem(item.expectation, findings);
    const seen = findings.map((f) => `${coveredIds(f).join("+")}:${f.severity}`);
    expect(verdict.misses, `found: ${seen.join(", ") || "nothing"}`).toEqual([]);
    expect(verdict.unwanted, `found: ${seen.join(", ")}`).toEqual([]);
    expect(verdict.severeOnHealthy.map((f) => f.id), "healthy data: nothing at high or critical").toEqual([]);
  });
});
