import { LRUCache } from "lru-cache";
import { collectEvidence, type GroundingEvidence, shownInput } from "./evidence.js";

/** Prompts whose evidence is kept: an analysis has six model calls, so this covers a few analyses repeated. */
const MAX_PROMPTS = 32;
/** ... and at most this many characters of prompts (a prompt is bounded near 18,000; the evidence is of its size). */
const MAX_PROMPT_CHARS = 1_000_000;

/**
 * The evidence of recent prompts, by their user message: a prompt asked again (an analysis repeated with its
 * answers from the response cache, the same request sent twice) is parsed and indexed once, not once per
 * answer. The evidence is a pure function of the prompt text, so an entry never goes stale.
 */
export class EvidenceCache {
  private readonly lru = new LRUCache<string, GroundingEvidence>({
    max: MAX_PROMPTS,
    maxSize: MAX_PROMPT_CHARS,
    sizeCalculation: (_evidence, prompt) => Math.max(1, prompt.length),
  });

  /** The evidence of a prompt's messages, built on its first use. */
  of(messages: readonly { role: string; content: string }[]): GroundingEvidence {
    const key = messages.find((m) => m.role === "user")?.content ?? "";
    let evidence = this.lru.get(key);
    if (!evidence) this.lru.set(key, (evidence = collectEvidence(shownInput(messages))));
    return evidence;
  }
}
