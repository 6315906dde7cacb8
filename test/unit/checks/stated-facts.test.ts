import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { detectChecksFindings } from "../../../nodes/checks/detect.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { expectationFailed } from "../../../nodes/checks/detectors/expectation-failed.js";
import { datasetBandOf } from "../../../nodes/checks/stated-stats.js";

/** A report of the real-output corpus, as its tool wrote it. */
function realText(item: string, file: string): string {
  return readFileSync(new URL(`../../fixtures/real/${item}/${file}`, import.meta.url), "utf8");
}

function realJson(item: string, file: string): Record<string, unknown> {
  return parseTolerantJson(realText(item, file)) as Record<string, unknown>;
}

describe("facts reports state without a verdict", () => {
  it("reads Evidently DataSummaryPreset metrics into column facts and duplicates, over the stated row count", () => {
    const r = parseChecksArtifact({ reports: [realJson("evidently/data-summary-faults", "report.json")] });
    expect(r.stated.duplicates).toMatchObject({ count: 111, fraction: 111 / 1111 });
    expect(r.stated.columns.find((c) => c.name === "annual_income")).toMatchObject({ rows: 1111, missing: 133, missingFraction: expect.closeTo(0.1197, 4) });
    expect(r.stated.columns.find((c) => c.name === "country")).toMatchObject({ unique: 1, missing: 0 });
    expect(r.stated.columns.find((c) => c.name === "age")?.std).toBeCloseTo(16.24, 2);
  });

  it("reads Deepchecks checks without a condition, and not a check whose condition gave a verdict", () => {
    const nulls = parseChecksArtifact({ reports: [realJson("deepchecks/percent-of-nulls-no-condition", "check.json")] });
    // to_json() writes the DataFrame without its index: the columns are named by position.
    expect(nulls.stated.columns.map((c) => [c.name, c.missingFraction])).toContainEqual(["column 3 of 5 (Deepchecks to_json() drops the names)", 0.2]);
    const suite = parseChecksArtifact({ reports: [realText("deepchecks/data-integrity-faults-string", "suite.json")] });
    expect(suite.stated.duplicates).toBeNull();
    // Mixed Nulls' condition judges the kinds of null, so its counts are facts.
    expect(suite.stated.columns.find((c) => c.name === "annual_income")).toMatchObject({ rows: 2273, missing: 223 });
  });

  it("judges stated facts by the dataset detectors' rules under checks ids", () => {
    const ids = detectChecksFindings(parseChecksArtifact({ reports: [realJson("evidently/legacy-data-quality-faults", "report.json")] })).map((f) => [f.id, f.severity, f.evidence[0]!.rule_id]);
    expect(ids).toEqual([
      ["checks.missing_values", "medium", "DS-04"],
      ["checks.duplicates", "medium", "DS-07"],
    ]);
  });

  it("reads a report sent as the JSON text its tool returned like the object", () => {
    const text = realText("deepchecks/label-drift-to-json-string", "check.json");
    const asText = parseChecksArtifact({ reports: [text] });
    const asObject = parseChecksArtifact({ reports: [parseTolerantJson(text) as Record<string, unknown>] });
    expect(asText.outcomes).toEqual(asObject.outcomes);
    expect(parseChecksArtifact({ reports: ["not json", text] }).unreadable).toEqual([{ path: "checks_artifacts.reports[0]", reason: expect.stringMatching(/text that is not a JSON object/) }]);
  });
});

describe("a tool's own severity", () => {
  const critical = realJson("great_expectations/validation-null-labels-critical", "validation.json");
  type Result = { expectation_config: { severity?: string; meta: Record<string, unknown> } };

  it("reports a failed Great Expectations expectation at the severity the suite gave it, and says so", () => {
    const [f] = expectationFailed.detect(parseChecksArtifact({ reports: [critical] }));
    expect(f!.severity).toBe("critical");
    expect(f!.evidence[0]!.text).toMatch(/The suite's own severity for it puts it at critical\./);
    const [info] = expectationFailed.detect(parseChecksArtifact({ reports: [realJson("great_expectations/validation-info-only", "validation.json")] }));
    expect(info!.severity).toBe("info");
  });

  it("takes a suite where every expectation says critical (GE's default) as no choice at all", () => {
    const all = structuredClone(critical) as { results: Result[] };
    for (const r of all.results) r.expectation_config.severity = "critical";
    expect(expectationFailed.detect(parseChecksArtifact({ reports: [all] }))[0]!.severity).toBe("medium");
  });

  it("reads meta.severity, as suites wrote it before the field existed", () => {
    const meta = structuredClone(critical) as { results: Result[] };
    for (const r of meta.results) {
      delete r.expectation_config.severity;
      r.expectation_config.meta = { severity: "critical" };
    }
    expect(expectationFailed.detect(parseChecksArtifact({ reports: [meta] }))[0]!.severity).toBe("critical");
  });
});

describe("shares a failing integrity check states", () => {
  const report = parseChecksArtifact({ checks: [{ name: "x", status: "pass" }] });

  it("are judged by the dataset rules' own code, at least their mildest band", () => {
    expect(datasetBandOf("data duplicates", 0.12, report)).toBe("medium");
    expect(datasetBandOf("data duplicates", 0.004, report)).toBe("low");
    expect(datasetBandOf("conflicting labels", 0.05, report)).toBe("high");
    expect(datasetBandOf("conflicting labels", 0, report)).toBe("medium");
    expect(datasetBandOf("percent of nulls", 0.2, report)).toBe("medium");
    expect(datasetBandOf("percent of nulls", 0.005, report)).toBe("low");
    expect(datasetBandOf("mixed nulls", 0.2, report)).toBeNull();
    expect(datasetBandOf("is single value", 1, report)).toBeNull();
  });
});
