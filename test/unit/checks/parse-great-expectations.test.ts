import { describe, expect, it } from "vitest";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { loadJson } from "../dataset/analyze.js";

// Fixtures written by great_expectations 1.2.6 and 0.18.22 themselves (scripts/fixtures/great_expectations_reports.py).
describe("Great Expectations validation results", () => {
  for (const [version, file, format] of [
    ["1.x", "checks/great-expectations-1x-validation.json", /Great Expectations 1\.x validation result \(1\.2\.6\)/],
    ["0.18", "checks/great-expectations-018-validation.json", /Great Expectations 0\.x validation result \(0\.18\.22\)/],
  ] as const) {
    it(`reads ${version}: types, suite name, percent → fraction, mostly → allowed share`, () => {
      const r = parseChecksArtifact({ reports: [loadJson(file)] });
      expect(r.reports[0]).toMatchObject({ tool: "great_expectations", name: "credit_train_suite" });
      expect(r.reports[0]!.format).toMatch(format);
      expect(r.outcomes).toHaveLength(8);
      const income = r.outcomes.find((o) => o.name === "expect_column_values_to_not_be_null" && o.columns[0] === "annual_income")!;
      // 40 nulls of 5,000 with mostly 0.98: success true, so no failure.
      expect(income).toMatchObject({ status: "pass", observed: 0.008, threshold: 0.02, values: { unexpected_count: 40, element_count: 5000 } });
      const age = r.outcomes.find((o) => o.name === "expect_column_values_to_be_between")!;
      expect(age).toMatchObject({ status: "fail", observed: 0.12, threshold: 0, category: "expectation", columns: ["age"] });
      expect(r.outcomes.find((o) => o.name === "expect_table_columns_to_match_set")!.category).toBe("schema");
      expect(r.rowCounts).toEqual([expect.objectContaining({ role: "batch", rows: 5000 })]);
      expect(r.columnSets[0]!.columns).toContain("applicant_id");
    });
  }

  it("reads a 1.x CheckpointResult describe_dict (expectation_type inside validation_results)", () => {
    const r = parseChecksArtifact({
      reports: [{
        success: false,
        statistics: { evaluated_validations: 1, success_percent: 0.0, successful_validations: 0, unsuccessful_validations: 1 },
        validation_results: [{
          success: false,
          statistics: { evaluated_expectations: 2, successful_expectations: 1, unsuccessful_expectations: 1, success_percent: 50.0 },
          expectations: [
            { expectation_type: "expect_column_values_to_not_be_null", success: false, kwargs: { column: "email", batch_id: "b" }, result: { element_count: 800, unexpected_count: 96, unexpected_percent: 12.0 } },
            { expectation_type: "expect_column_to_exist", success: true, kwargs: { column: "email" }, result: {} },
          ],
          result_url: null,
        }],
      }],
    });
    expect(r.reports[0]!.format).toBe("Great Expectations checkpoint result");
    expect(r.outcomes.map((o) => [o.name, o.status, o.category])).toEqual([
      ["expect_column_values_to_not_be_null", "fail", "expectation"],
      ["expect_column_to_exist", "pass", "schema"],
    ]);
    expect(r.outcomes[0]!.path).toBe("checks_artifacts.reports[0].validation_results[0].expectations[0]");
  });

  it("reads a 0.18 checkpoint result (run_results → validation_result) and exceptions as errors", () => {
    const r = parseChecksArtifact({
      reports: [{
        success: false,
        run_id: { run_name: "nightly", run_time: "2024-05-01T00:00:00+00:00" },
        run_results: {
          "ValidationResultIdentifier::train_suite/nightly": {
            validation_result: {
              success: false,
              meta: { expectation_suite_name: "train_suite", great_expectations_version: "0.18.21" },
              statistics: { evaluated_expectations: 1, successful_expectations: 0, unsuccessful_expectations: 1, success_percent: 0.0 },
              results: [{
                success: false,
                expectation_config: { expectation_type: "expect_column_values_to_match_regex", kwargs: { column: "zip", regex: "^\\d{5}$" } },
                result: {},
                exception_info: { raised_exception: true, exception_message: "KeyError: 'zip'", exception_traceback: "…" },
              }],
            },
          },
        },
      }],
    });
    expect(r.outcomes[0]).toMatchObject({ status: "error", report: "train_suite", message: "KeyError: 'zip'" });
  });
});
