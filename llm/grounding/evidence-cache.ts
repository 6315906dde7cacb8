import { LRUCache } from "lru-cache";
import type { Prompt } from "../prompt-kit.js";
import { collectEvidence, type GroundingEvidence } from "./evidence.js";

/** Prompts whose evidence is kept: an analysis has six model calls, so this covers a few analyses repeated. */
const MAX_PROMPTS = 32;
/** ... and at most this many characters of prompts (a prompt is bounded near 18,000; the evidence is of its size). */
const MAX_PROMPT_CHARS = 1_000_000;

/**
 * The evidence of recent prompts, by their user message: a prompt asked again (an analysis repeated with its
 * answers from the response cache, the same request sent twice) is indexed once, not once per answer. The
 * evidence is a pure function of what the prompt shows, which its text says whole, so an entry never goes stale.
 */
export class EvidenceCache {
  private readonly lru = new LRUCache<string, GroundingEvidence>({
    max: MAX_PROMPTS,
    maxSize: MAX_PROMPT_CHARS,
    sizeCalculation: (_evidence, prompt) => Math.max(1, prompt.length),
  });

  /** The evidence of a prompt, built from the values it shows on its first use. */
  of(prompt: Prompt): GroundingEvidence {
    const key = prompt.messages[1].content;
    let evidence = this.lru.get(key);
    if (!evidence) this.lru.set(key, (evidence = collectEvidence(prompt.shown)));
    return evidence;
  }
}
