import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FindingSchema, type Finding } from "../../../domain/result.js";
import { TRAINING_DETECTORS } from "../../../nodes/training/detectors/index.js";
import type { TrainingRun } from "../../../nodes/training/model.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { FAULT_TYPES, faultyHistory } from "../../support/synthetic-faults.js";
import { sampleTrainingArtifact, series, trainingRun } from "../../support/training-run.js";

/**
 * The findings contract of the training tier: every detector of the catalog fires on at least one of these runs,
 * and every finding it gives is well formed (its own id, one of its catalog severities, text a person can read,
 * evidence that names its rule). A detector added to the catalog without a run here fails the last test.
 */

const SAMPLES = [
  "full-image-classification",
  "keras-majority-collapse",
  "llm-finetune-hf",
  "llm-finetune-bf16-healthy",
  "tabular-drift-evidently",
  "tabular-healthy",
  "tabular-nan-features",
  "vit-head-mismatch",
];
const XGB = { objective: "binary:logistic", max_depth: 6, eta: 0.3 };
const boostingTrain = series(100, (i) => 0.69 * Math.exp(-i / 15));
const withLogs = (...logs: string[]) => trainingRun({ loss: [2, 1.5, 1.2, 1, 0.9] }, { logs });
const EVENTS = readFileSync(new URL("../../fixtures/real/runs/tensorboard-healthy/runs/exp1/events.out.tfevents.1795593186.vm.28385.2", import.meta.url));

const RUNS: Array<[string, () => TrainingRun]> = [
  ...FAULT_TYPES.map((fault): [string, () => TrainingRun] => [`fault ${fault}`, () => parseTrainingArtifact(faultyHistory(3, fault, 0.9))]),
  ...SAMPLES.map((name): [string, () => TrainingRun] => [`sample ${name}`, () => parseTrainingArtifact(sampleTrainingArtifact(name))]),
  [
    "boosting run rising after round 20",
    () => trainingRun({ val_loss: series(100, (i) => (i <= 20 ? 0.69 - (0.29 * i) / 20 : 0.4 * (1 + (0.3 * (i - 20)) / 79))), train_loss: boostingTrain }, { params: XGB }),
  ],
  [
    "boosting run flat after round 60",
    () => trainingRun({ val_loss: series(100, (i) => (i <= 60 ? 0.69 - (0.29 * i) / 60 : 0.4 * (1 + 0.001 * ((i - 60) % 2)))), train_loss: boostingTrain }, { params: XGB }),
  ],
  ["val loss still falling in a straight line", () => trainingRun({ train_loss: series(40, (i) => 2.2 - 0.03 * i), val_loss: series(40, (i) => 2 - 0.02 * i) })],
  ["chance-level accuracy on 10 classes", () => trainingRun({ val_accuracy: series(30, (i) => 0.1 + 0.004 * (i % 3)), val_loss: series(30, (i) => 2.3 + 0.01 * (i % 2)) }, { params: { num_classes: 10 } })],
  [
    "tfevents cut in half",
    () => parseTrainingArtifact({ metrics: { format: "tfevents", content_base64: EVENTS.subarray(0, Math.floor(EVENTS.length / 2)).toString("base64") } }),
  ],
  ["CUDA out of memory", () => withLogs("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")],
  ["data-loader worker killed", () => withLogs("RuntimeError: DataLoader worker (pid 93) is killed by signal: Killed.")],
  ["nan in a backward pass", () => withLogs("RuntimeError: Function 'DivBackward0' returned nan values in its 0th output.")],
];

const nonEmpty = (s: string | undefined) => typeof s === "string" && s.trim().length > 0;

describe("training findings contract", () => {
  it.each(RUNS)("every finding on %s is well formed and its detector's own", (_name, build) => {
    const run = build();
    for (const detector of TRAINING_DETECTORS) {
      const findings: Finding[] = detector.detect(run);
      for (const f of findings) {
        const where = `${detector.info.id} on ${_name}`;
        expect(FindingSchema.safeParse(f).success, where).toBe(true);
        expect(f.id, where).toBe(detector.info.id);
        expect(detector.info.severities, where).toContain(f.severity);
        expect(f.source, where).toBe("detector");
        expect(nonEmpty(f.title), where).toBe(true);
        expect(nonEmpty(f.description), where).toBe(true);
        expect(f.recommendation, where).not.toBeNull();
        expect(nonEmpty(f.recommendation!.action), where).toBe(true);
        expect(nonEmpty(f.recommendation!.rationale), where).toBe(true);
        expect(f.confidence, where).toBeGreaterThan(0);
        expect(f.evidence.length, where).toBeGreaterThan(0);
        for (const e of f.evidence) {
          expect(nonEmpty(e.text), where).toBe(true);
          expect(nonEmpty(e.rule_id), where).toBe(true);
          expect(e.artifact, where).toMatch(/^training_artifacts\.(metrics(:.+)?|logs|params|metadata)$/);
        }
        // The lead evidence is the detector's own rule.
        expect(f.evidence[0]!.rule_id, where).toBe(detector.info.rule);
      }
    }
  });

  it("every detector of the catalog fired on one of the runs above", () => {
    const runs = RUNS.map(([, build]) => build());
    const silent = TRAINING_DETECTORS.filter((d) => runs.every((run) => d.detect(run).length === 0)).map((d) => d.info.id);
    expect(silent).toEqual([]);
  });

  it("has one catalog entry per id and rule, each with its severities and threshold stated", () => {
    const ids = TRAINING_DETECTORS.map((d) => d.info.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { info } of TRAINING_DETECTORS) {
      expect(info.id).toMatch(/^training\.[a-z_]+$/);
      expect(info.severities.length, info.id).toBeGreaterThan(0);
      for (const text of [info.title, info.threshold, info.basis, info.rule]) expect(nonEmpty(text), info.id).toBe(true);
    }
  });
});
