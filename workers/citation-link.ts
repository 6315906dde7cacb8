import type { MessagePort } from "node:worker_threads";
import type { Finding } from "../domain/result.js";
import type { KnowledgePort } from "../knowledge/port.js";

/** A citation request from a pool thread, and its answer from the event loop. */
type CitationAsk = { id: number; findings: Finding[] };
type CitationAnswer = { id: number; findings: Finding[] } | { id: number; error: { name: string; message: string } };

/**
 * Answers, on the event loop, the citation requests an analysis on a pool thread sends over `port`, from the
 * process's one knowledge base: its cache (bounds, counters in /metrics, shared Redis store) stays one whichever
 * thread analyses. Returns a function that stops answering and closes the port.
 */
export function answerCitations(port: MessagePort, knowledge: KnowledgePort, signal: AbortSignal): () => void {
  port.on("message", ({ id, findings }: CitationAsk) => {
    knowledge.citeFindings(findings, signal).then(
      (cited) => port.postMessage({ id, findings: cited } satisfies CitationAnswer),
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        port.postMessage({ id, error: { name: e.name, message: e.message } } satisfies CitationAnswer);
      },
    );
  });
  return () => port.close();
}

/**
 * The knowledge port of an analysis on a pool thread: citations are asked of the event loop (answerCitations),
 * the cited documents are described from the thread's own copy of the corpus (the same documents).
 */
export function citationsOverPort(port: MessagePort, describe: KnowledgePort["describe"]): KnowledgePort {
  let next = 0;
  const waiting = new Map<number, { resolve: (findings: Finding[]) => void; reject: (err: Error) => void }>();
  port.on("message", (answer: CitationAnswer) => {
    const ask = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (!ask) return;
    if ("error" in answer) ask.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
    else ask.resolve(answer.findings);
  });
  return {
    citeFindings: (findings) =>
      new Promise<Finding[]>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        port.postMessage({ id, findings } satisfies CitationAsk);
      }),
    describe,
  };
}
