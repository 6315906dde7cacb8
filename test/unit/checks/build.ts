import type { Finding } from "../../../domain/result.js";
import type { ChecksDetector } from "../../../nodes/checks/detector.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";

type Status = "PASS" | "WARN" | "FAIL" | "ERROR";

/** A Deepchecks CheckResult as `to_json()` writes it, with one condition (or none). */
export function dcCheck(name: string, value: unknown, condition?: [Status, string, string]) {
  return {
    type: "CheckResult",
    check: { name, params: {}, summary: `${name} summary` },
    header: name,
    value,
    conditions_results: condition ? [{ Status: condition[0], Condition: condition[1], "More Info": condition[2] }] : [],
    display: null,
  };
}

export function dcFailure(name: string, exception: string) {
  return { header: name, type: "CheckFailure", check: { name, params: {}, summary: "" }, exception };
}

export function dcSuite(name: string, results: unknown[]) {
  return { name, type: "SuiteResult", results };
}

/** Runs one detector on a checks artifact, as the analyzer reads it. */
export function detectOn(detector: ChecksDetector, artifact: Record<string, unknown>, datasetName: string | null = null): Finding[] {
  return detector.detect(parseChecksArtifact(artifact, "checks_artifacts", datasetName));
}

export function only(findings: Finding[]): Finding {
  if (findings.length !== 1) throw new Error(`expected exactly one finding, got ${findings.length}`);
  return findings[0]!;
}
