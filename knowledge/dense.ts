import type { KnowledgeDocument } from "./document.js";
import { untilAborted } from "./abort.js";
import type { QueryFilters, RankedId } from "./full-text.js";

/** What dense ranking needs from an embeddings endpoint (OpenAIEmbeddings satisfies it). */
export interface TextEmbedder {
  embedQuery(text: string): Promise<number[]>;
  embedDocuments(texts: string[]): Promise<number[][]>;
}

/** Text embedded per document: what it is about, not every word of its body. */
const DOC_TEXT_CHARS = 2000;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** Cosine ranking of the corpus against a query embedding; the corpus is embedded once, on first use. */
export class DenseIndex {
  private docVectors: Promise<number[][]> | null = null;

  constructor(
    private readonly docs: readonly KnowledgeDocument[],
    private readonly embedder: TextEmbedder,
  ) {}

  private vectors(): Promise<number[][]> {
    if (!this.docVectors) {
      const texts = this.docs.map((d) => `${d.title}\n${d.tags.join(", ")}\n${d.body}`.slice(0, DOC_TEXT_CHARS));
      this.docVectors = this.embedder.embedDocuments(texts).then((vectors) => {
        if (vectors.length !== this.docs.length) {
          throw new Error(`embeddings endpoint returned ${vectors.length} vectors for ${this.docs.length} documents`);
        }
        return vectors;
      });
      // A failed corpus embedding is retried by the next query instead of being remembered.
      this.docVectors.catch(() => {
        this.docVectors = null;
      });
    }
    return this.docVectors;
  }

  /** Every document within the filters, by cosine similarity to the query, best first. */
  async search(text: string, filters: QueryFilters = {}, signal?: AbortSignal): Promise<RankedId[]> {
    const [docVectors, query] = await untilAborted(Promise.all([this.vectors(), this.embedder.embedQuery(text)]), signal);
    return this.docs
      .map((d, i) => ({ doc: d, score: cosine(query, docVectors[i]!) }))
      .filter(({ doc }) => (!filters.domain || doc.domain === filters.domain) && (!filters.type || doc.query_type === filters.type))
      .sort((a, b) => b.score - a.score || a.doc.id.localeCompare(b.doc.id))
      .map(({ doc, score }) => ({ id: doc.id, score }));
  }
}
