import { describe, expect, it } from "vitest";
import { collectEvidence } from "../../../../llm/grounding/evidence.js";
import { evidenceValues } from "../../../../llm/grounding/numbers.js";
import { TextValues } from "../../../../llm/grounding/text-values.js";

describe("TextValues", () => {
  it("gives each text's evidence values, the same read again or not", () => {
    const texts = new TextValues();
    const text = "std ratio 115,563,108× between \"annual_revenue\" and \"interest_rate\" (threshold 100×), 12.5 %";
    const first: number[] = [];
    texts.addValues(text, first);
    const again = [7];
    texts.addValues(text, again);
    expect(first).toEqual(evidenceValues(text));
    expect(again).toEqual([7, ...evidenceValues(text)]);
  });

  it("keeps a read text's values apart from the lists they were added to", () => {
    const texts = new TextValues();
    const out: number[] = [];
    texts.addValues("loss 0.41", out);
    out.push(99);
    const next: number[] = [];
    texts.addValues("loss 0.41", next);
    expect(next).toEqual([0.41]);
  });

  it("builds the evidence of prompts sharing texts as each prompt's own", () => {
    const finding = (observed: number) => ({ id: "training.overfitting", severity: "high", description: "val/loss rose 12.5 % after epoch 6", evidence: [{ rule_id: "TH-13", observed }] });
    const prompts = [{ findings: [finding(0.58)] }, { findings: [finding(0.58), finding(3)], summary: "val/loss rose 12.5 % after epoch 6" }];
    const texts = new TextValues();
    for (const shown of prompts) {
      const shared = collectEvidence(shown, texts);
      const alone = collectEvidence(shown);
      for (const value of [0.58, 3, 12.5, 0.125, 6, 13, 1]) expect(shared.numbers.has(value, 0), String(value)).toBe(alone.numbers.has(value, 0));
      expect(shared.byName.get("observed")?.grounds({ text: "3", index: 0, readings: [[{ value: 3, tolerance: 0 }]] })).toBe(alone.byName.get("observed")?.grounds({ text: "3", index: 0, readings: [[{ value: 3, tolerance: 0 }]] }));
    }
  });
});
