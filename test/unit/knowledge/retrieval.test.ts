import { describe, expect, it } from "vitest";
import { documentsByDetector } from "../../../knowledge/citations.js";
import { FullTextIndex } from "../../../knowledge/full-text.js";
import { loadCorpus } from "../../../knowledge/load-corpus.js";
import { processTerm } from "../../../knowledge/terms.js";
import { KNOWN_FINDINGS } from "./known-detectors.js";

const docs = loadCorpus();
const index = new FullTextIndex(docs);
const byDetector = documentsByDetector(docs);

describe("full-text retrieval of finding texts", () => {
  // The text alone, without the id: what an LLM finding or a new detector would offer.
  it.each(Object.entries(KNOWN_FINDINGS))("%s: a mapped document ranks in the top 3 for its finding text", (id, text) => {
    const top = index.search(text).slice(0, 3).map((r) => r.id);
    const expected = byDetector.get(id) ?? [];
    expect(expected.length, `no document lists ${id}`).toBeGreaterThan(0);
    expect(top.filter((d) => expected.includes(d)), `top 3 ${top.join(", ")}; expected one of ${expected.join(", ")}`).not.toEqual([]);
  });

  it("ranks a title match above documents that only mention the words in their body", () => {
    const [first] = index.search("vanishing gradients");
    expect(first?.id).toBe("vanishing-gradients");
  });

  it("filters by domain and by query type", () => {
    const all = index.search("learning rate");
    const optimization = index.search("learning rate", { domain: "optimization" });
    expect(optimization.length).toBeGreaterThan(0);
    expect(optimization.length).toBeLessThan(all.length);
    const byId = new Map(docs.map((d) => [d.id, d]));
    for (const r of optimization) expect(byId.get(r.id)?.domain).toBe("optimization");
    const solutions = index.search("learning rate", { domain: "optimization", type: "solution" });
    for (const r of solutions) expect(byId.get(r.id)).toMatchObject({ domain: "optimization", query_type: "solution" });
    expect(solutions.map((r) => r.id)).toContain("plateau-lr-decay");
  });

  it("returns nothing for words the corpus does not contain", () => {
    expect(index.search("zzyzx quuxblorp")).toEqual([]);
  });
});

describe("term processing", () => {
  it("meets inflections at one stem and drops stop words", () => {
    expect(processTerm("Normalization")).toBe(processTerm("normalized"));
    expect(processTerm("normalize")).toBe(processTerm("normalizing"));
    expect(processTerm("gradients")).toBe(processTerm("gradient"));
    expect(processTerm("the")).toBeNull();
    expect(processTerm("lr")).toBe("lr");
  });
});
