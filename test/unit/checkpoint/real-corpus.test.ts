import { describe, expect, it } from "vitest";
import { FindingSchema } from "../../../domain/result.js";
import { coveredIds } from "../../../nodes/root-causes.js";
import { judgeItem } from "../../support/real-corpus.js";
import { analyzeCheckpointItem, checkpointItems } from "../../support/real-checkpoint-corpus.js";

// Every checkpoint item of the real-output corpus (written by torch, safetensors, Lightning and transformers
// themselves, scripts/fixtures/real/checkpoint_corpus.py) through the checkpoint analyzer, the corpus folder being
// SERVICE_ARTIFACT_ROOTS, against the findings written down in its expected.json.
const items = checkpointItems();

describe("checkpoint analyzer on the real-output corpus", () => {
  it("holds every checkpoint item the generator writes", () => {
    expect(items.map((i) => i.name)).toEqual(expect.arrayContaining([
      "torch-state-dict-healthy", "torch-state-dict-nan", "torch-state-dict-exploding", "torch-state-dict-fp16-overflow",
      "torch-state-dict-dead-layer", "safetensors-healthy", "lightning-save-checkpoint", "lightning-checkpoints-folder",
      "hf-save-pretrained", "hf-sharded", "hf-trainer-checkpoint", "hf-trainer-diverged", "truncated-torch",
    ]));
  });

  it.each(items.map((i) => [i.name, i] as const))("%s", async (_name, item) => {
    const { result, findings } = await analyzeCheckpointItem(item);
    expect(result.error_message).toBeNull();
    for (const f of findings) FindingSchema.parse(f);
    const verdict = judgeItem(item.expectation, findings);
    const seen = findings.map((f) => `${coveredIds(f).join("+")}:${f.severity}`).join(", ") || "nothing";
    expect(verdict.misses, `found: ${seen}`).toEqual([]);
    expect(verdict.unwanted, `found: ${seen}`).toEqual([]);
    expect(verdict.severeOnHealthy.map((f) => f.id), "healthy checkpoint: nothing at high or critical").toEqual([]);
  });
});
