import { describe, expect, it } from "vitest";
import { measureFault, measureHealthy } from "../../support/detector-calibration.js";
import { FAULT_TYPES } from "../../support/synthetic-faults.js";

/**
 * The detectors measured on the seeded generator (test/support/synthetic-*.ts): honest about noise on healthy runs,
 * and finding strong faults. docs/detectors.md reports the same figures per detector.
 */
describe("training detectors on synthetic histories", () => {
  it("raise high or critical findings on at most 1 % of 500 healthy histories", () => {
    const healthy = measureHealthy(500);
    expect(healthy.severeRuns / healthy.runs).toBeLessThanOrEqual(0.01);
  });

  it.each(FAULT_TYPES)("find injected %s in ≥ 95 percent of strong cases at its expected severity", (fault) => {
    const figures = measureFault(fault, 40, 0.7, 1);
    expect(figures.found / figures.cases).toBeGreaterThanOrEqual(0.95);
  });
});
