import MiniSearch, { type AsPlainObject, type Options } from "minisearch";
import type { Domain, KnowledgeDocument, QueryType } from "./document.js";
import { processTerm } from "./terms.js";

/** A document id with its score from one ranker, best first. */
export interface RankedId {
  id: string;
  score: number;
}

/** What a query may narrow the corpus to. */
export interface QueryFilters {
  domain?: Domain | undefined;
  type?: QueryType | undefined;
}

interface IndexedFields {
  id: string;
  title: string;
  tags: string;
  detectors: string;
  body: string;
  domain: Domain;
  query_type: QueryType;
}

/** Field weights: a match in the title or tags says more about a document than one in its body. */
const BOOST = { title: 3, tags: 2.5, detectors: 2, body: 1 } as const;

/**
 * How the index tokenizes and ranks. Functions are not serialized with an index, so a restored index takes them
 * from here too.
 */
const OPTIONS: Options<IndexedFields> = {
  fields: ["title", "tags", "detectors", "body"],
  storeFields: ["domain", "query_type"],
  processTerm,
  searchOptions: { boost: { ...BOOST }, prefix: (term) => term.length >= 4, fuzzy: 0, combineWith: "OR" },
};

/** A full-text index as `toJSON` writes it (the production build's snapshot, knowledge/snapshot.ts). */
export type FullTextJson = AsPlainObject;

/** BM25 full-text ranking over the corpus (MiniSearch), with title/tag boosts and domain/type filters. */
export class FullTextIndex {
  private readonly index: MiniSearch<IndexedFields>;

  /** Indexes the documents, or takes back an index that `toJSON` wrote from them. */
  constructor(from: readonly KnowledgeDocument[] | { restore: FullTextJson }) {
    if (!Array.isArray(from)) {
      this.index = MiniSearch.loadJS<IndexedFields>((from as { restore: FullTextJson }).restore, OPTIONS);
      return;
    }
    this.index = new MiniSearch<IndexedFields>(OPTIONS);
    this.index.addAll(
      (from as readonly KnowledgeDocument[]).map((d) => ({
        id: d.id,
        title: d.title,
        tags: d.tags.join(" "),
        // "training.early_stop_opportunity" → words, so a finding id's name matches like text does.
        detectors: d.detectors.join(" "),
        body: d.body,
        domain: d.domain,
        query_type: d.query_type,
      })),
    );
  }

  toJSON(): FullTextJson {
    return this.index.toJSON();
  }

  /** Documents matching any query term, best first, within the filters. */
  search(text: string, filters: QueryFilters = {}): RankedId[] {
    const { domain, type } = filters;
    const results =
      domain || type
        ? this.index.search(text, { filter: (r) => (!domain || r.domain === domain) && (!type || r.query_type === type) })
        : this.index.search(text);
    return results.map((r) => ({ id: String(r.id), score: r.score }));
  }
}
