import type { Finding } from "../domain/result.js";
import { untilAborted } from "./abort.js";
import { CACHE_LIMITS, type CacheOptions, type CacheStats, cacheKey, KnowledgeCache } from "./cache.js";
import { citeFinding, documentsByDetector } from "./citations.js";
import type { Domain, KnowledgeDocument, QueryType } from "./document.js";
import { sourceLine } from "./document.js";
import type { Retrieval, Retriever, RetrievalMode } from "./retriever.js";
import type { Citation, KnowledgePort } from "./port.js";

/** A knowledge query (GET /v1/knowledge). */
export interface KnowledgeQuery {
  q: string;
  domain?: Domain | undefined;
  type?: QueryType | undefined;
  /** How many documents to return (the cache holds the whole ranking). */
  limit?: number | undefined;
}

/** One ranked document as the debugging endpoint shows it. */
export interface KnowledgeHit {
  id: string;
  title: string;
  domain: Domain;
  query_type: QueryType;
  score: number;
  text_score: number | null;
  dense_score: number | null;
  url: string;
  snippet: string;
}

export interface KnowledgeSearchResult {
  mode: RetrievalMode;
  documents: KnowledgeHit[];
}

export interface KnowledgeStats {
  documents: number;
  hybrid: boolean;
  cache: CacheStats;
}

/** What the service exposes beyond the graph's port: search for debugging, and numbers for /metrics. */
export interface KnowledgeService extends KnowledgePort {
  search(query: KnowledgeQuery, signal?: AbortSignal): Promise<KnowledgeSearchResult>;
  stats(): KnowledgeStats;
}

export const DEFAULT_LIMIT = 5;
export { CACHE_LIMITS };

/** Same words, same cache entry: case and spacing do not change the ranking. */
export function normalizeQuery(q: string): string {
  return q.trim().replace(/\s+/g, " ").toLowerCase();
}

/** The curated corpus behind citations: retrieval (cached), finding citations and cited-document details. */
export class KnowledgeBase implements KnowledgeService {
  private readonly byId: Map<string, KnowledgeDocument>;
  private readonly byDetector: Map<string, string[]>;
  private readonly cache: KnowledgeCache<Retrieval>;

  constructor(
    readonly documents: readonly KnowledgeDocument[],
    private readonly retriever: Retriever,
    cacheOptions: CacheOptions<Retrieval> = {},
    private readonly onWarning: (message: string) => void = () => {},
  ) {
    this.byId = new Map(documents.map((d) => [d.id, d]));
    this.byDetector = documentsByDetector(documents);
    this.cache = new KnowledgeCache<Retrieval>(cacheOptions);
  }

  /** The whole ranking for a query, through the cache; degraded (fallback) rankings are not cached. */
  private async rank(q: string, domain: Domain | undefined, type: QueryType | undefined, signal?: AbortSignal): Promise<Retrieval> {
    const text = normalizeQuery(q);
    const key = cacheKey(text, domain ?? null, type ?? null);
    const shared = this.cache.getOrFetch(
      key,
      async () => {
        const result = await this.retriever.retrieve(text, { domain, type });
        if (result.warning) this.onWarning(result.warning);
        return result;
      },
      (r) => r.mode !== "full_text_fallback",
    );
    return untilAborted(shared, signal);
  }

  async search(query: KnowledgeQuery, signal?: AbortSignal): Promise<KnowledgeSearchResult> {
    const { mode, documents } = await this.rank(query.q, query.domain, query.type, signal);
    const hits = documents.slice(0, query.limit ?? DEFAULT_LIMIT).flatMap((r) => {
      const d = this.byId.get(r.id);
      if (!d) return [];
      const hit: KnowledgeHit = {
        id: d.id,
        title: d.title,
        domain: d.domain,
        query_type: d.query_type,
        score: r.score,
        text_score: r.text_score,
        dense_score: r.dense_score,
        url: d.sources[0]!.url,
        snippet: d.snippet,
      };
      return [hit];
    });
    return { mode, documents: hits };
  }

  async citeFindings(findings: Finding[], signal?: AbortSignal): Promise<Finding[]> {
    const known = new Set(this.byId.keys());
    const rank = async (text: string, s?: AbortSignal) => (await this.rank(text, undefined, undefined, s)).documents;
    return Promise.all(
      findings.map(async (f) => ({ ...f, citations: await citeFinding(f, this.byDetector, known, rank, signal) })),
    );
  }

  describe(ids: readonly string[]): Citation[] {
    return [...new Set(ids)].flatMap((id) => {
      const d = this.byId.get(id);
      if (!d) return [];
      const primary = d.sources[0]!;
      return [{ id: d.id, title: d.title, url: primary.url, source: sourceLine(primary), snippet: d.snippet }];
    });
  }

  stats(): KnowledgeStats {
    return { documents: this.documents.length, hybrid: this.retriever.hybrid, cache: this.cache.stats() };
  }
}
