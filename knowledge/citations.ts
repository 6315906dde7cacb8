import type { Finding } from "../domain/result.js";
import type { KnowledgeDocument } from "./document.js";

/** At most this many documents back one finding: enough to corroborate, few enough to read. */
export const MAX_CITATIONS = 3;
/** Text-only matches must score at least this share of the best match to be cited. */
const RELATIVE_SCORE_FLOOR = 0.5;
/** Text-only matches cited for a finding whose id no document lists. */
const TEXT_ONLY_CITATIONS = 2;
const QUERY_CHARS = 400;

/** Ids of documents, best first, with their scores for one query. */
export type Ranker = (text: string, signal?: AbortSignal) => Promise<Array<{ id: string; score: number }>>;

/** Document ids per finding id, from the `detectors` lists of the corpus (the id → document mapping table). */
export function documentsByDetector(docs: readonly KnowledgeDocument[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const d of docs) for (const id of d.detectors) map.set(id, [...(map.get(id) ?? []), d.id]);
  return map;
}

/** What a finding is about, as retrieval text: its title, the words of its id, its description. */
export function findingQuery(finding: Finding): string {
  const idWords = finding.id.replace(/[._]/g, " ");
  return `${finding.title}. ${idWords}. ${finding.description}`.slice(0, QUERY_CHARS);
}

/**
 * The documents a finding rests on: those mapped to its id, most relevant to its text first; for an id no
 * document lists (a new detector, an LLM finding), the best text matches. Citations already on the finding
 * that name real documents are kept first.
 */
export async function citeFinding(
  finding: Finding,
  byDetector: ReadonlyMap<string, readonly string[]>,
  known: ReadonlySet<string>,
  rank: Ranker,
  signal?: AbortSignal,
): Promise<string[]> {
  const kept = finding.citations.filter((id) => known.has(id));
  const ranked = await rank(findingQuery(finding), signal);
  const mapped = byDetector.get(finding.id) ?? [];
  let chosen: string[];
  if (mapped.length > 0) {
    // The ranks of the one to three mapped documents, not a map of the whole ranking for every finding (that map
    // was 1 % of the service's busy time on the full sample).
    const rankOf = (id: string) => {
      const at = ranked.findLastIndex((r) => r.id === id);
      return at < 0 ? Infinity : at;
    };
    chosen = mapped
      .map((id) => ({ id, rank: rankOf(id) }))
      .sort((a, b) => a.rank - b.rank)
      .map((m) => m.id);
  } else {
    const best = ranked[0]?.score ?? 0;
    chosen = ranked.filter((r) => r.score >= best * RELATIVE_SCORE_FLOOR).slice(0, TEXT_ONLY_CITATIONS).map((r) => r.id);
  }
  return [...new Set([...kept, ...chosen])].slice(0, Math.max(MAX_CITATIONS, kept.length));
}
