import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { catalogTable, type DetectorInfo } from "../../nodes/catalog.js";
import { checkpointDetectors } from "../../nodes/checkpoint/catalog.js";
import { checksDetectors } from "../../nodes/checks/catalog.js";
import { datasetDetectors } from "../../nodes/dataset/catalog.js";
import { experimentDetectors } from "../../nodes/experiment/catalog.js";
import { crossDetectors } from "../../nodes/integrate/catalog.js";
import { trainingDetectors } from "../../nodes/training/catalog.js";
import { SEVERITIES } from "../../domain/result.js";

// docs/detectors.md is what users read to know what fires when; it is generated from the catalog records
// (scripts/gen-detector-docs.ts), and this test holds the two together: a changed threshold, title or severity
// fails here until the page is generated again.
const DOCS = readFileSync(new URL("../../docs/detectors.md", import.meta.url), "utf8");

const CATALOGS: Record<string, DetectorInfo[]> = {
  "Training histories": trainingDetectors,
  "Dataset statistics": datasetDetectors,
  "Check reports": checksDetectors,
  "Checkpoint metadata": checkpointDetectors,
  "Cross-artifact rules (integrate)": crossDetectors,
  "Cross-run rules (compare)": experimentDetectors,
};

describe("the detector catalog and docs/detectors.md", () => {
  it.each(Object.entries(CATALOGS))("the page shows the %s catalog as its records say, under its heading", (title, detectors) => {
    expect(DOCS).toContain(`## ${title} (${detectors.length})\n`);
    expect(DOCS).toContain(`\n${catalogTable(detectors)}\n`);
  });

  it("counts every detector in its first paragraph", () => {
    const total = Object.values(CATALOGS).reduce((n, c) => n + c.length, 0);
    expect(DOCS).toContain(`Every deterministic detector of the service: ${total} in all.`);
  });

  it("has no record with an empty field, a duplicate id or a severity outside the scale", () => {
    const all = Object.values(CATALOGS).flat();
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    for (const d of all) {
      expect([d.id, d.rule, d.title, d.threshold, d.basis].every((field) => field.trim().length > 0), d.id).toBe(true);
      expect(d.severities.length, d.id).toBeGreaterThan(0);
      expect(d.severities.every((s) => SEVERITIES.includes(s)), d.id).toBe(true);
    }
  });
});
