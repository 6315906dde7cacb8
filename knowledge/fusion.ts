import type { RankedId } from "./full-text.js";

/** Reciprocal rank fusion constant (Cormack et al. 2009 use 60): damps the weight of the very top ranks. */
const RRF_K = 60;

/** A document's fused score with the scores of the rankers it came from (null: that ranker did not list it). */
export interface FusedId {
  id: string;
  score: number;
  text_score: number | null;
  dense_score: number | null;
}

/**
 * Reciprocal rank fusion of the full-text and dense rankings: Σ 1/(k + rank) over the rankings that list a
 * document, so neither ranker's score scale dominates. Ties break by id.
 */
export function fuseRankings(text: readonly RankedId[], dense: readonly RankedId[]): FusedId[] {
  const fused = new Map<string, FusedId>();
  const entry = (id: string) => {
    let e = fused.get(id);
    if (!e) {
      e = { id, score: 0, text_score: null, dense_score: null };
      fused.set(id, e);
    }
    return e;
  };
  text.forEach((r, rank) => {
    const e = entry(r.id);
    e.score += 1 / (RRF_K + rank + 1);
    e.text_score = r.score;
  });
  dense.forEach((r, rank) => {
    const e = entry(r.id);
    e.score += 1 / (RRF_K + rank + 1);
    e.dense_score = r.score;
  });
  return [...fused.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
