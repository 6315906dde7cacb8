import type { DenseIndex } from "./dense.js";
import { type FusedId, fuseRankings } from "./fusion.js";
import type { FullTextIndex, QueryFilters } from "./full-text.js";

/** How a result was ranked; `full_text_fallback`: the embeddings endpoint failed and full text stood in. */
export type RetrievalMode = "full_text" | "hybrid" | "full_text_fallback";

export interface Retrieval {
  mode: RetrievalMode;
  documents: FusedId[];
  /** Why the dense ranker was not used, when it failed. */
  warning?: string;
}

/** Ranks the corpus for a query: full text alone, or fused with dense similarity when embeddings are configured. */
export class Retriever {
  constructor(
    private readonly fullText: FullTextIndex,
    private readonly dense: DenseIndex | null,
  ) {}

  get hybrid(): boolean {
    return this.dense !== null;
  }

  async retrieve(text: string, filters: QueryFilters, signal?: AbortSignal): Promise<Retrieval> {
    const textRanked = this.fullText.search(text, filters);
    if (!this.dense) {
      return { mode: "full_text", documents: textRanked.map((r) => ({ ...r, text_score: r.score, dense_score: null })) };
    }
    try {
      const denseRanked = await this.dense.search(text, filters, signal);
      return { mode: "hybrid", documents: fuseRankings(textRanked, denseRanked) };
    } catch (err) {
      if (signal?.aborted) throw err;
      return {
        mode: "full_text_fallback",
        documents: textRanked.map((r) => ({ ...r, text_score: r.score, dense_score: null })),
        warning: `embeddings unavailable, full-text ranking used: ${(err as Error).message}`,
      };
    }
  }
}
