import { describe, expect, it } from "vitest";
import { EvidenceCache } from "../../../../llm/grounding/evidence-cache.js";
import type { Prompt } from "../../../../llm/prompt-kit.js";

const prompt = (n: number): Prompt => {
  const shown = { findings: [{ id: "training.overfitting", severity: "high", evidence: [{ observed: n }] }] };
  return { messages: [{ role: "system", content: "Review the findings." }, { role: "user", content: JSON.stringify(shown) }], shown };
};

describe("EvidenceCache", () => {
  it("builds a prompt's evidence once and tells prompts apart by their user message", () => {
    const cache = new EvidenceCache();
    const first = cache.of(prompt(0.58));
    expect(cache.of(prompt(0.58))).toBe(first);
    const other = cache.of(prompt(12.5));
    expect(other).not.toBe(first);
    expect(first.severityOf.get("training.overfitting")).toBe("high");
    expect(other.numbers.has(12.5, 0)).toBe(true);
    expect(first.numbers.has(12.5, 0)).toBe(false);
  });

  it("keeps a bounded number of prompts, the least recently used leaving first", () => {
    const cache = new EvidenceCache();
    const first = cache.of(prompt(0));
    for (let i = 1; i <= 64; i++) cache.of(prompt(i));
    expect(cache.of(prompt(0))).not.toBe(first);
  });
});
