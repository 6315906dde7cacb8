import { describe, expect, it } from "vitest";
import { severityRank } from "../../../domain/result.js";
import { runExtent } from "../../../nodes/training/curves.js";
import { detectTrainingFindings } from "../../../nodes/training/detect.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { PARTIAL_RUN, stillRunning } from "../../../nodes/training/partial-run.js";
import { TrainingArtifactSchema } from "../../../nodes/training/schema.js";
import { TRAINING_DETECTORS } from "../../../nodes/training/detectors/index.js";
import { measureAlarmTiming, measurePrefixFalseAlarms, prefixSteps, runningPrefix } from "../../support/partial-run-calibration.js";
import { loadRunItems, runRequests } from "../../support/run-folders.js";
import { FAULT_TYPES, faultyHistory } from "../../support/synthetic-faults.js";

const items = await loadRunItems();
const severe = (s: string) => severityRank(s as never) <= severityRank("high");

describe("a training run still going (metadata.status running)", () => {
  it("has a partial-run behaviour for every training detector", () => {
    expect(TRAINING_DETECTORS.map((d) => d.info.id).filter((id) => !PARTIAL_RUN[id])).toEqual([]);
  });

  it("rejects a status or expected length it cannot use, naming the field", () => {
    const bad = TrainingArtifactSchema.safeParse({ logs: ["x"], metadata: { status: "half-done", expected_total_steps: -3 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["metadata.status", "metadata.expected_total_steps"]);
    expect(TrainingArtifactSchema.safeParse({ logs: ["x"], metadata: { status: "RUNNING", expected_total_steps: 5000 } }).success).toBe(true);
  });

  const healthy = items.filter((i) => i.expectation.healthy);
  it.each(healthy.map((i) => [i.name, i] as const))("%s: no finished-run finding and nothing high at any running prefix", async (_name, item) => {
    for (const request of await runRequests(item)) {
      const run = parseTrainingArtifact(request.body.training_artifacts);
      for (const step of prefixSteps(run, 10)) {
        const prefix = runningPrefix(run, step);
        const findings = detectTrainingFindings(prefix);
        // A prefix that reached the Trainer's max_steps is the finished run.
        const leaked = findings.filter((f) => stillRunning(prefix) && PARTIAL_RUN[f.id]?.mode === "held_back" && !PARTIAL_RUN[f.id]?.unless?.(f));
        expect(leaked.map((f) => `${request.label} @${step}: ${f.id}`)).toEqual([]);
        expect(findings.filter((f) => severe(f.severity)).map((f) => `${request.label} @${step}: ${f.id}`)).toEqual([]);
      }
    }
  });

  it("reports the finished-run judgements again once the status says the run ended", async () => {
    const item = items.find((i) => i.name === "mlflow-sgd-lr-stalls-at-chance")!;
    const [request] = await runRequests(item);
    const training = request!.body.training_artifacts;
    const ended = detectTrainingFindings(parseTrainingArtifact({ ...training, metadata: { status: "FINISHED" } })).map((f) => f.id);
    const running = detectTrainingFindings(parseTrainingArtifact({ ...training, metadata: { status: "RUNNING" } })).map((f) => f.id);
    expect(ended).toContain("training.chance_level");
    expect(running).not.toContain("training.chance_level");
    // Reaching the expected length counts as the end.
    const run = parseTrainingArtifact({ ...training, metadata: { status: "RUNNING", expected_total_steps: runExtent(parseTrainingArtifact(training)).last } });
    expect(detectTrainingFindings(run).map((f) => f.id)).toContain("training.chance_level");
  });

  it("reports a real NaN at the step it was logged, while running, with the step in every piece of evidence", async () => {
    const item = items.find((i) => i.name === "lightning-csv-sgd-nan")!;
    const request = (await runRequests(item)).find((r) => r.label.endsWith("as lightning_csv"))!;
    const text = (request.body.training_artifacts.metrics as { content: string }).content;
    const lines = text.split("\n");
    // The first row with a NaN or exploded (≥ 1e5) loss: this run's SGD blows up to 1.8e22 before it logs nan.
    const header = lines[0]!.split(",");
    const lossColumns = header.flatMap((h, i) => (/loss/.test(h) ? [i] : []));
    const firstNan = lines.findIndex((l, i) => i > 0 && lossColumns.some((c) => {
      const cell = l.split(",")[c] ?? "";
      return cell !== "" && !(Math.abs(Number(cell)) < 1e5);
    }));
    expect(firstNan).toBeGreaterThan(0);
    // The CSV cut right after the first NaN row, as a watcher sees it, plus a half-written row.
    const cut = `${lines.slice(0, firstNan + 1).join("\n")}\n${lines[firstNan + 1]!.slice(0, 3)}`;
    const findings = detectTrainingFindings(parseTrainingArtifact({ ...request.body.training_artifacts, metrics: { format: "lightning_csv", content: cut }, metadata: { status: "running" } }));
    const nan = findings.find((f) => f.id === "training.nonfinite_loss")!;
    expect(nan.severity).toBe("critical");
    const step = Number(lines[firstNan]!.split(",")[header.indexOf("step")]);
    for (const e of nan.evidence) expect(e.detected_at_step).toBe(step);
  });

  it("dates a divergence at the first prefix that shows it, and every finding carries its step", () => {
    for (let seed = 0; seed < 5; seed++) {
      const run = parseTrainingArtifact(faultyHistory(100 + seed, "divergence", 0.8));
      const found = detectTrainingFindings(run);
      for (const f of found) for (const e of f.evidence) expect(e).toHaveProperty("detected_at_step");
      const at = found.find((f) => f.id === "training.divergence")!.evidence[0]!.detected_at_step!;
      // Conclusive at `at`: the running prefix ending there shows it, the one just before does not.
      const ids = (step: number) => detectTrainingFindings(runningPrefix(run, step)).map((f) => f.id);
      expect(ids(at)).toContain("training.divergence");
      expect(ids(at - 1e-6)).not.toContain("training.divergence");
    }
  });

  it("raises a high or critical finding on ≤ 1 % of 500 healthy histories at any of 20 running prefixes, and no finished-run finding", () => {
    const figures = measurePrefixFalseAlarms(500, 20);
    expect(figures.heldBackLeaks).toBe(0);
    expect(figures.alarmedRuns / figures.runs, figures.alarms.join("; ")).toBeLessThanOrEqual(0.01);
  }, 120_000);

  // docs/detectors.md publishes the same figures on 40 cases per fault.
  it.each(FAULT_TYPES)("dates a strong %s: found on every case, before the end unless its detector waits for it", (fault) => {
    const timing = measureAlarmTiming(fault, 8);
    expect(timing.found).toBe(timing.cases);
    if (timing.mode === "held_back") expect(timing.medianElapsed).toBe(1);
    else if (timing.medianElapsed !== null) expect(timing.medianElapsed).toBeLessThan(1);
  });
});
