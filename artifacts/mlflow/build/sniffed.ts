import type { PulledDocument } from "../documents.js";
import { type Sniffed, sniffDocument } from "../sniff.js";

/** A pulled document with what its content turned out to be. */
export interface SniffedDocument {
  doc: PulledDocument;
  sniffed: Sniffed;
}

/** Keeps the documents that are one of the service's artifact kinds, in path order. */
export function sniffAll(docs: readonly PulledDocument[]): SniffedDocument[] {
  return docs
    .filter((doc) => doc.value !== undefined)
    .flatMap((doc) => {
      const sniffed = sniffDocument(doc.path, doc.value);
      return sniffed ? [{ doc, sniffed }] : [];
    })
    .sort((a, b) => a.doc.path.localeCompare(b.doc.path));
}
