import { describe, expect, it } from "vitest";
import { loadServiceSettings } from "../../../config/env.js";
import type { Finding } from "../../../domain/result.js";
import { createKnowledgeBase } from "../../../knowledge/create.js";
import { detectorFinding } from "../../../nodes/findings.js";

const settings = loadServiceSettings({});
const kb = () => createKnowledgeBase({ settings, llmConfig: null });

function finding(id: string, title: string, description: string, citations: string[] = []): Finding {
  return {
    ...detectorFinding({ id, title, description, evidence: [], severity: "high", confidence: 0.8, recommendation: null }),
    citations,
  };
}

describe("knowledge base citations", () => {
  it("cites the documents mapped to a finding's id, the one closest to its text first", async () => {
    const [f] = await kb().citeFindings([
      finding("training.overfitting", "Overfitting", "Validation loss rose from 0.55 to 1.18 while training loss kept falling."),
    ]);
    expect(f!.citations[0]).toBe("overfitting-regularization");
    expect(f!.citations).toContain("early-stopping");
    expect(f!.citations.length).toBeLessThanOrEqual(3);
  });

  it("cites by text when no document lists the finding's id (a new detector or an LLM finding)", async () => {
    const [f] = await kb().citeFindings([
      finding("training.brand_new_rule", "Gradient norm explodes", "grad_norm jumped from 0.5 to 407 before turning NaN; clip the gradients."),
    ]);
    expect(f!.citations.length).toBeGreaterThan(0);
    expect(f!.citations).toContain("exploding-gradients-clipping");
  });

  it("keeps citations already on a finding when they name real documents, and drops invented ones", async () => {
    const [f] = await kb().citeFindings([
      finding("dataset.class_imbalance", "Class imbalance", "25:1 between classes.", ["imbalanced-metrics", "made-up-doc"]),
    ]);
    expect(f!.citations[0]).toBe("imbalanced-metrics");
    expect(f!.citations).not.toContain("made-up-doc");
    expect(f!.citations).toContain("class-imbalance");
  });

  it("describes cited documents once each, in the given order, skipping unknown ids", () => {
    const cited = kb().describe(["train-test-overlap", "nope", "early-stopping", "train-test-overlap"]);
    expect(cited.map((c) => c.id)).toEqual(["train-test-overlap", "early-stopping"]);
    expect(cited[0]).toEqual({
      id: "train-test-overlap",
      title: "Samples shared between the training and test splits",
      url: "https://arxiv.org/abs/1902.00423",
      source: "Björn Barz, Joachim Denzler (2020). Do We Train on Test Data? Purging CIFAR of Near-Duplicates.",
      snippet: expect.stringMatching(/^When test \(or validation\) rows also appear in the training data/),
    });
  });
});

describe("knowledge search", () => {
  it("returns ranked documents with scores, within the limit and the filters", async () => {
    const result = await kb().search({ q: "validation loss rising while training loss falls", limit: 3 });
    expect(result.mode).toBe("full_text");
    expect(result.documents).toHaveLength(3);
    expect(result.documents[0]).toMatchObject({ id: "overfitting-regularization", dense_score: null });
    const scores = result.documents.map((d) => d.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const filtered = await kb().search({ q: "learning rate", domain: "optimization", type: "diagnostic", limit: 10 });
    for (const d of filtered.documents) expect(d).toMatchObject({ domain: "optimization", query_type: "diagnostic" });
  });

  it("caches by normalized query, domain and type: case and spacing do not make a new entry", async () => {
    const base = kb();
    await base.search({ q: "Loss Spikes" });
    await base.search({ q: "  loss   spikes " });
    await base.search({ q: "loss spikes", limit: 1 });
    expect(base.stats().cache).toMatchObject({ misses: 1, hits: 2, entries: 1 });
    await base.search({ q: "loss spikes", domain: "training" });
    expect(base.stats().cache).toMatchObject({ misses: 2, entries: 2 });
  });

  it("rejects when the caller's signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("client went away"));
    await expect(kb().search({ q: "overfitting" }, controller.signal)).rejects.toThrow("client went away");
  });
});
