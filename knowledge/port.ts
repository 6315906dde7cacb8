import type { Finding } from "../domain/result.js";

/** One cited document as listed in additional_outputs.citations. */
export interface Citation {
  id: string;
  title: string;
  url: string;
  /** "Authors or organization (year). Title." */
  source: string;
  snippet: string;
}

/** What the graph needs from the knowledge base: citations for findings, and the cited documents. */
export interface KnowledgePort {
  /** Returns the findings with `citations` (document ids) filled in. */
  citeFindings(findings: Finding[], signal?: AbortSignal): Promise<Finding[]>;
  /** The documents behind the ids, in the given order, each once; unknown ids are skipped. */
  describe(ids: readonly string[]): Citation[];
}
