import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeDatasetArtifacts } from "../../../client/dataset/index.js";
import { detectChecksFindings } from "../../../nodes/checks/detect.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { columnsNamed, diagnoseLeakageCase, LEAKAGE_ROOT, leakageCases } from "../../../scripts/leakage-vs-deepchecks.js";

const CASES = leakageCases();


describe("leakage facts on pairs with known truth", () => {
  it.each(CASES)("%s: DS-13 names the leaking columns and no other, as Deepchecks' Feature Label Correlation does", async (name) => {
    const { truth, deepchecks, findings } = await diagnoseLeakageCase(name);
    expect(columnsNamed(findings, "dataset.label_predictive_feature")).toEqual([...truth.flag].sort());
    expect(deepchecks.feature_label_correlation.flagged).toEqual([...truth.flag].sort());
    expect(columnsNamed(findings, "dataset.label_signal_split_change")).toEqual([...(truth.split_change ?? [])].sort());
    expect(findings.some((f) => f.id === "dataset.conflicting_labels")).toBe(truth.conflicting_fraction !== undefined);
  });

  it("counts 2 % conflicting rows as Deepchecks does", async () => {
    const { truth, artifacts, findings, deepchecks: dc } = await diagnoseLeakageCase("conflicting");
    expect(artifacts.statistics.conflicting_labels?.fraction).toBeCloseTo(truth.conflicting_fraction!, 6);
    expect(artifacts.statistics.conflicting_labels?.fraction).toBeCloseTo(dc.conflicting_labels.fraction, 3);
    expect(artifacts.statistics.conflicting_labels?.examples[0]?.labels).toEqual(["0", "1"]);
    expect(findings.find((f) => f.id === "dataset.conflicting_labels")?.severity).toBe("medium");
  });

  it("finds the test rows dated before the end of training, high when the column is stated", async () => {
    const found = await diagnoseLeakageCase("time_leak");
    const stated = await diagnoseLeakageCase("time_leak", "event_time");
    expect(found.artifacts.statistics.time_split).toMatchObject({ column: "event_time", stated: false });
    expect(found.artifacts.statistics.time_split?.test_before_train_end.fraction).toBeCloseTo(0.15, 2);
    expect(found.findings.find((f) => f.id === "dataset.time_split_leak")?.severity).toBe("medium");
    expect(stated.findings.find((f) => f.id === "dataset.time_split_leak")?.severity).toBe("high");
  });

  it("flags no time split where rows carry no date", async () => {
    const { artifacts, findings } = await diagnoseLeakageCase("healthy");
    expect(artifacts.statistics.time_split).toBeUndefined();
    expect(findings.filter((f) => /leak|predictive|split_change|conflicting/.test(f.id))).toEqual([]);
  });

  it("scores an id ordered by label by its AUC, and sees it rise along the rows", async () => {
    const { artifacts } = await diagnoseLeakageCase("id_ordered");
    const signal = artifacts.statistics.label_signal!;
    expect(signal.record_id).toMatchObject({ method: "auc", monotonic: true });
    expect(signal.record_id!.train).toBeGreaterThan(0.95);
    expect(signal.plan).toMatchObject({ method: "purity" });
    expect(signal.plan!.monotonic).toBeUndefined();
    expect(signal.income).toMatchObject({ method: "auc", monotonic: false });
    expect(signal.age!.train).toBeLessThan(3 * signal.age!.null_sd);
    expect(signal.age!.monotonic).toBeUndefined();
  });
});

describe("label signal, leave-one-out", () => {
  it("gives a text identifier unique per row 0 in train, where plain purity would give 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "label-signal-"));
    try {
      const rows = Array.from({ length: 300 }, (_, i) => `u${(i * 7919) % 300},${i % 3 === 0 ? "yes" : "no"}`);
      writeFileSync(join(dir, "train.csv"), ["ref,label", ...rows].join("\n") + "\n");
      const { statistics } = await computeDatasetArtifacts({ data: join(dir, "train.csv"), target: "label", threads: 1 });
      expect(statistics.label_signal?.ref).toMatchObject({ method: "purity", train: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the same facts from Deepchecks' own reports on those pairs", () => {
  const checksFindings = (name: string) => {
    const reports = ["feature-label-correlation", "feature-label-correlation-change", "conflicting-labels"].map((check) =>
      JSON.parse(readFileSync(join(LEAKAGE_ROOT, name, `deepchecks-${check}.json`), "utf8")),
    );
    return detectChecksFindings(parseChecksArtifact({ reports }));
  };

  it.each(["status_leak", "noisy_copy", "id_ordered", "train_only_leak"])("%s: the leakage finding names the column DS-13 names", async (name) => {
    const { truth } = await diagnoseLeakageCase(name);
    const leak = checksFindings(name).find((f) => f.id === "checks.leakage_failed");
    expect(leak?.severity).toBe("high");
    expect(leak?.description).toContain(`${truth.flag[0]} predicts the label`);
  });

  it("conflicting labels reach the integrity rule; the healthy pair gives nothing", () => {
    expect(checksFindings("conflicting").map((f) => f.id)).toEqual(["checks.integrity_failed"]);
    expect(checksFindings("healthy")).toEqual([]);
  });
});
