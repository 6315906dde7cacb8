import { describe, expect, it } from "vitest";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { loadJson } from "../dataset/analyze.js";

describe("generic check records and artifact dispatch", () => {
  it("reads {name, status, category, value, threshold, message, columns} and infers what each check is about", () => {
    const body = loadJson("samples/tabular-drift-evidently.json");
    const r = parseChecksArtifact(body.checks_artifacts as Record<string, unknown>);
    const generic = r.outcomes.filter((o) => o.tool === "generic");
    expect(generic.map((o) => [o.name, o.status, o.category])).toEqual([
      ["missing_values", "fail", "integrity"],
      ["single_value_column", "warn", "integrity"],
      ["missing_values", "pass", "integrity"],
      ["duplicate_rows", "pass", "integrity"],
      ["target_share_shift", "warn", "label_drift"],
      ["schema_match", "pass", "schema"],
    ]);
    expect(generic[0]).toMatchObject({ observed: 0.4, threshold: 0.05, columns: ["last_login_days"], path: "checks_artifacts.checks[0]" });
  });

  it("accepts status synonyms and records unreadable records instead of failing the whole artifact", () => {
    const r = parseChecksArtifact({ checks: [{ name: "a", status: "PASSED" }, { name: "b", status: "Warning" }, { name: "c", status: "maybe" }, { foo: 1 }] });
    expect(r.outcomes.map((o) => o.status)).toEqual(["pass", "warn"]);
    expect(r.unreadable.map((u) => u.path)).toEqual(["checks_artifacts.checks[2]", "checks_artifacts.checks[3]"]);
    expect(r.unreadable[0]!.reason).toMatch(/"maybe"/);
  });

  it("tells report formats apart by content and notes unknown reports", () => {
    const r = parseChecksArtifact({
      reports: [
        loadJson("checks/deepchecks-samples-mix-check.json"),
        loadJson("checks/evidently-07-drift-snapshot.json"),
        loadJson("checks/great-expectations-1x-validation.json"),
        { some: "thing" },
      ],
    });
    expect(r.reports.map((x) => x.tool)).toEqual(["deepchecks", "evidently", "great_expectations"]);
    expect(r.unreadable).toEqual([{ path: "checks_artifacts.reports[3]", reason: expect.stringMatching(/not a Deepchecks, Evidently, Great Expectations or TFDV report \(keys: some\)/) }]);
  });

  it("accepts a single report sent as the artifact itself", () => {
    const r = parseChecksArtifact(loadJson("checks/deepchecks-data-integrity-suite.json"));
    expect(r.reports[0]!.path).toBe("checks_artifacts");
  });

  it("fails with the reasons when nothing can be read", () => {
    expect(() => parseChecksArtifact({ reports: [{ some: "thing" }] })).toThrow(/no check results could be read \(checks_artifacts\.reports\[0\]: not a Deepchecks/);
    expect(() => parseChecksArtifact({ reports: [], checks: [] })).toThrow(/no reports or checks found/);
    expect(() => parseChecksArtifact({ reports: [{ name: "Empty Suite", type: "SuiteResult", results: [] }] })).toThrow(/the reports are empty/);
  });
});
