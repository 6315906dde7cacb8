import { DOMAINS, QUERY_TYPES } from "../../knowledge/document.js";
import type { QueryFilters, RankedId } from "../../knowledge/full-text.js";
import type { IndexedCorpus } from "../../knowledge/snapshot.js";

/**
 * What an indexed corpus answers to a spread of queries: every document's title, tags and finding ids (whole
 * words and the prefixes MiniSearch expands), a few free texts, each unfiltered and under every domain and query
 * type filter. Two indexes that give equal answers here rank alike for the service. Scores keep 12 significant
 * digits: a restored index sums a prefix query's terms in another order, which moves the last bit of a score.
 */
export function answersOf(corpus: IndexedCorpus): Record<string, RankedId[]> {
  const texts = new Set<string>(["learning rate", "loss is nan after a few steps", "normaliz", "validation accuracy drops", "zzz no such word"]);
  for (const d of corpus.docs) {
    texts.add(d.title);
    texts.add(d.tags.join(" "));
    for (const detector of d.detectors) texts.add(detector);
  }
  const search = (text: string, filters: QueryFilters = {}) => corpus.fullText.search(text, filters).map((r) => ({ id: r.id, score: Number(r.score.toPrecision(12)) }));
  const answers: Record<string, RankedId[]> = {};
  for (const text of texts) {
    answers[text] = search(text);
    for (const domain of DOMAINS) answers[`${text} | domain=${domain}`] = search(text, { domain });
    for (const type of QUERY_TYPES) answers[`${text} | type=${type}`] = search(text, { type });
  }
  return answers;
}
