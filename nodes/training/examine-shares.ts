import type { ArtifactSource } from "../analyzer.js";
import type { Examination } from "../examine.js";
import { prioritizeFindings } from "../findings.js";
import type { PackedValue } from "../../workers/number-columns.js";
import { POOL_THREADS, runTask } from "../../workers/pool.js";
import type { TrainingFacts } from "./facts.js";
import { organizeTrainingFindings } from "./detect.js";

/**
 * A training history's examination on every pool thread at once (deterministic mode): each thread parses the
 * payload's columns, which are in shared memory and so read, not copied, then takes detectors from a shared
 * counter (workers/examine-training-share.ts); the findings are put back in detector order and organized as
 * the analyzer's own `detect` does, so the examination is the one a single thread gives (nodes/examine.ts).
 * Not with the digest: it reads every finding, so it would wait for the merge on a thread of its own.
 */
export async function examineTrainingInShares(packed: PackedValue, source: ArtifactSource, signal?: AbortSignal): Promise<Examination<TrainingFacts>> {
  const next = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const shares = await Promise.all(Array.from({ length: POOL_THREADS }, () => runTask("examineTrainingShare", { source, packed, next }, { signal })));
  const found = [];
  let facts = null;
  for (const share of shares) {
    if ("unreadable" in share) return share;
    found.push(...share.found);
    facts ??= share.facts;
  }
  if (!facts) throw new Error("no thread took the training facts");
  const inOrder = found.sort(([a], [b]) => a - b).flatMap(([, findings]) => findings);
  return { examined: { findings: prioritizeFindings(organizeTrainingFindings(inOrder)), facts: facts.facts, digest: null, analyzed: facts.analyzed } };
}
