import { describe, expect, it } from "vitest";
import { trainingAnalyzer } from "../../../nodes/training/node.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { detectTrainingFindings } from "../../../nodes/training/detect.js";
import { coveredIds } from "../../../nodes/root-causes.js";
import { loadRunItems, runRequests } from "../../support/run-folders.js";

/** The training findings of a real run folder, before and after root-cause grouping. */
async function findingsOf(name: string) {
  const item = (await loadRunItems()).find((i) => i.name === name)!;
  const [request] = await runRequests(item);
  const run = parseTrainingArtifact(request!.body.training_artifacts);
  return { ungrouped: detectTrainingFindings(run), grouped: trainingAnalyzer.detect(run) };
}

describe("training findings that share one root cause", () => {
  it("a real run that never left chance is one finding, at the worst severity, with every detector's evidence", async () => {
    const { ungrouped, grouped } = await findingsOf("mlflow-sgd-lr-stalls-at-chance");
    const never = ["training.chance_level", "training.no_learning", "training.underfitting"];
    expect(ungrouped.map((f) => f.id)).toEqual(expect.arrayContaining(never));
    const merged = grouped.filter((f) => coveredIds(f).some((id) => never.includes(id)));
    expect(merged).toHaveLength(1);
    expect(coveredIds(merged[0]!)).toEqual(expect.arrayContaining(never));
    expect(merged[0]!.severity).toBe("high");
    expect(merged[0]!.evidence.length).toBeGreaterThanOrEqual(never.length);
    expect(grouped.length).toBeLessThan(ungrouped.length);
  });

  it("leaves a healthy run's findings as they are", async () => {
    const { ungrouped, grouped } = await findingsOf("lightning-csv-healthy");
    expect(grouped.map((f) => f.id).sort()).toEqual(ungrouped.map((f) => f.id).sort());
  });
});
