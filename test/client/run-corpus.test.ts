import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../support/http-service.js";
import { analyseFolder, type ItemScore, loadCorpus, scoreItem, type Split, splitFigures, SPLITS } from "../support/run-corpus.js";

/**
 * Issue 35's "done when" on the run corpus written by the real libraries (test/fixtures/runcorpus/, labels committed
 * before any detector change): through `ml-diagnose analyse <folder>`, every folder is served, at least 95 % of the
 * faults of each holdout part are found at their severity, and no healthy run gets a high or critical finding.
 */

/**
 * Holdout parts below the goal for a reason outside the detectors, expected to fail until closed (as expected.json's
 * known_gap in test/client/real-runs.test.ts).
 */
const KNOWN_GAPS: Partial<Record<Split, string>> = {
  holdout:
    "two printed logs in the logging module's `train_loss 0.51 val_loss 0.6` style (name and value separated by a space) give no series: the printed-log styles (nodes/training/parse/log-styles.ts) read `name: value` and `name=value` only",
};

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc?.close());

async function scoreSplit(split: Split): Promise<ItemScore[]> {
  const scores: ItemScore[] = [];
  for (const item of loadCorpus(split)) scores.push(scoreItem(item, await analyseFolder(item.dir, svc.url)));
  return scores;
}

describe.each(SPLITS)("the %s part of the run corpus", { timeout: 600_000 }, (split) => {
  let scores: ItemScore[];
  beforeAll(async () => {
    scores = await scoreSplit(split);
  }, 600_000);

  it("serves every folder (no 'nothing to analyse')", () => {
    expect(scores.filter((s) => !s.served).map((s) => s.item.name)).toEqual([]);
  });

  it("reports no high or critical finding on a healthy run", () => {
    expect(scores.filter((s) => s.falseAlarms.length > 0).map((s) => `${s.item.name}: ${s.falseAlarms.join(", ")}`)).toEqual([]);
  });

  it("does not lead a chance-level run with a plateau", () => {
    expect(scores.filter((s) => s.wrongLead).map((s) => `${s.item.name}: ${s.wrongLead}`)).toEqual([]);
  });

  if (split !== "tuning") {
    (KNOWN_GAPS[split] ? it.fails : it)(`finds at least 95 % of the faults at their severity${KNOWN_GAPS[split] ? ` (known gap: ${KNOWN_GAPS[split]})` : ""}`, () => {
      const f = splitFigures(scores);
      const missed = scores.flatMap((s) => s.faults.filter((x) => !x.ok).map((x) => `${s.item.name}: ${x.ids[0]} ≥ ${x.severity} (got ${x.found ?? "none"}; ${s.findings})`));
      expect(f.found / f.faults, missed.join("\n")).toBeGreaterThanOrEqual(0.95);
    });
  }
});
