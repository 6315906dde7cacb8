import { describe, expect, it } from "vitest";
import { labelDrift } from "../../../nodes/checks/detectors/label-drift.js";
import { leakageFailed } from "../../../nodes/checks/detectors/leakage-failed.js";
import { dcCheck, detectOn } from "./build.js";

/**
 * The catalog defaults the checks detectors apply to a Deepchecks check that ran without a condition, pinned at
 * their edges: the default itself counts as crossed (Deepchecks' own conditions compare the same way), just
 * below it stays quiet.
 */
const severity = (check: ReturnType<typeof dcCheck>, detector: typeof labelDrift) => detectOn(detector, { reports: [check] })[0]?.severity ?? null;

describe("CR-02 train–test samples mix: a ratio at or above 5 % without a condition → high", () => {
  it("fires at 5 % and not just below", () => {
    expect(severity(dcCheck("Train Test Samples Mix", { ratio: 0.05 }), leakageFailed)).toBe("high");
    expect(severity(dcCheck("Train Test Samples Mix", { ratio: 0.0499 }), leakageFailed)).toBeNull();
  });
});

describe("CR-05 label drift: a drift score at or above 0.15 without a condition → high", () => {
  it("fires at 0.15 and not just below", () => {
    expect(severity(dcCheck("Label Drift", { "Drift score": 0.15, Method: "Cramer's V" }), labelDrift)).toBe("high");
    expect(severity(dcCheck("Label Drift", { "Drift score": 0.1499, Method: "Cramer's V" }), labelDrift)).toBeNull();
  });
});
