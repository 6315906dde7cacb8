import { describe, expect, it } from "vitest";
import { EvidenceSchema, FindingRecommendationSchema, FindingSchema, SeveritySchema } from "../../../domain/result.js";
import { experimentDetectors } from "../../../nodes/experiment/catalog.js";
import { detectExperimentFindings } from "../../../nodes/experiment/detect.js";
import type { Experiment } from "../../../nodes/experiment/model.js";
import { grid, runFinding, sweep, VAL_ACC } from "./runs.js";

const seeds = (config: Record<string, string | number>, scores: number[], prefix: string) =>
  Object.fromEntries(scores.map((score, i) => [`${prefix}-${i + 1}`, { params: { ...config, seed: i + 1 }, score }]));

/** Small sweeps; together every cross-run detector fires on them. */
const INPUTS: Array<[string, Experiment]> = [
  [
    "a learning-rate grid, best at its upper edge, every run overfitting",
    sweep(grid("lr", [[1e-4, 0.9], [3e-4, 0.8], [1e-3, 0.7], [3e-3, 0.6], [1e-2, 0.5]], { findings: [runFinding("training.overfitting", "medium")] })),
  ],
  ["two architectures within seed noise, three seeds each", sweep({ ...seeds({ arch: "a" }, [0.5, 0.51, 0.49], "a"), ...seeds({ arch: "b" }, [0.505, 0.515, 0.495], "b") })],
  [
    "a change 20 % worse than the baseline, and one whose runs all diverged",
    sweep({ ...seeds({ change: "main" }, [0.5, 0.51, 0.49], "main"), ...seeds({ change: "pr" }, [0.6, 0.61, 0.59], "pr"), broken: { params: { change: "broken" }, diverged: true } }, { baseline: "main-1" }),
  ],
  ["deterministic training: seeds that change nothing", sweep({ ...seeds({ depth: 4 }, [0.8, 0.8], "d4"), ...seeds({ depth: 6 }, [0.85, 0.85], "d6") }, { objective: VAL_ACC })],
];

const catalog = new Map(experimentDetectors.map((d) => [d.id, d]));
/** Detectors whose finding may carry no recommendation: a summary of per-run findings, a sensitivity with no clear effect. */
const INFORMATIVE = new Set(["experiment.shared_run_findings", "experiment.sensitivity"]);

describe("the cross-run catalog", () => {
  it("lists each detector once, under an experiment.* id and its own EX rule", () => {
    expect(experimentDetectors.map((d) => d.rule)).toEqual(["EX-01", "EX-02", "EX-03", "EX-04", "EX-05", "EX-06", "EX-07", "EX-08", "EX-09"]);
    expect(catalog.size).toBe(experimentDetectors.length);
    for (const d of experimentDetectors) {
      expect(d.id).toMatch(/^experiment\.[a-z_]+$/);
      for (const s of d.severities) expect(SeveritySchema.parse(s)).toBe(s);
    }
  });
});

describe("what every cross-run finding carries", () => {
  const fired = new Set<string>();

  it.each(INPUTS)("%s", (_, experiment) => {
    const { findings } = detectExperimentFindings(experiment);
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      const info = catalog.get(f.id);
      expect(info, f.id).toBeDefined();
      fired.add(f.id);
      expect(FindingSchema.parse(f)).toEqual(f);
      expect(info!.severities).toContain(f.severity);
      expect(f.source).toBe("detector");
      expect(f.confidence).toBeGreaterThanOrEqual(0.05);
      expect(f.confidence).toBeLessThanOrEqual(0.95);
      expect(f.title.trim().length).toBeGreaterThan(5);
      expect(f.description.trim().length).toBeGreaterThan(20);
      if (f.recommendation !== null || !INFORMATIVE.has(f.id)) {
        const rec = FindingRecommendationSchema.parse(f.recommendation);
        for (const text of [rec.action, rec.rationale]) expect(text.trim().length).toBeGreaterThan(20);
      }
      expect(f.evidence.length).toBeGreaterThan(0);
      for (const e of EvidenceSchema.array().parse(f.evidence)) {
        expect(e.rule_id).toBe(info!.rule);
        expect(e.artifact).toMatch(/^runs/);
        expect(e.text.trim().length).toBeGreaterThan(10);
      }
    }
  });

  it("covers every detector of the catalog (a detector added without an input here fails)", () => {
    expect([...fired].sort()).toEqual([...catalog.keys()].sort());
  });
});

describe("the findings of one experiment", () => {
  it("come most severe first, and with the baseline comparison they rest on", () => {
    const { findings, comparison } = detectExperimentFindings(INPUTS[2]![1]);
    expect(findings.map((f) => f.severity)).toEqual([...findings.map((f) => f.severity)].sort((a, b) => SeveritySchema.options.indexOf(a) - SeveritySchema.options.indexOf(b)));
    expect(findings[0]!.id).toBe("experiment.regression");
    expect(comparison?.baseline).toBe("main-1");
    expect(comparison?.candidates.map((c) => c.runs)).toEqual([["pr-1", "pr-2", "pr-3"], ["broken"]]);
  });

  it("come without a baseline comparison when no baseline is named", () => {
    expect(detectExperimentFindings(INPUTS[0]![1]).comparison).toBeNull();
  });
});
