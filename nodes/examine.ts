import type { Finding } from "../domain/result.js";
import type { ArtifactSource, AnalyzerSpec } from "./analyzer-spec.js";
import { prioritizeFindings } from "./findings.js";

/**
 * The deterministic part of an analysis, as plain data: what the detectors found (prioritized), the numbers for
 * the cross-artifact rules, the model's digest and what was analyzed. Plain data because it may come back from a
 * worker thread (nodes/examine-off-loop.ts).
 */
export interface Examined<Facts> {
  findings: Finding[];
  facts: Facts;
  /** null in deterministic mode: only the language model reads it. */
  digest: unknown;
  analyzed: string[];
}

/** An examination, or why the artifact could not be read (its parser's message). */
export type Examination<Facts> = { examined: Examined<Facts> } | { unreadable: string };

/**
 * detect → facts → digest → describe over a parsed artifact, each once. The facts read the detector findings
 * only by id and evidence, which the model's review keeps (its own findings are `<kind>.llm.*`), so the facts
 * taken here hold for the reviewed findings too.
 */
export function examine<P, F>(spec: AnalyzerSpec<P, F, never>, parsed: P, withDigest: boolean): Examined<F> {
  const findings = prioritizeFindings(spec.detect(parsed));
  return {
    findings,
    facts: spec.facts(parsed, findings),
    digest: withDigest ? spec.digest(parsed, findings) : null,
    analyzed: spec.describe(parsed),
  };
}

/** Parses the payload and examines it; a content error comes back as its message. */
export async function examinePayload<P, F, Run extends ArtifactSource>(
  spec: AnalyzerSpec<P, F, Run>,
  payload: Record<string, unknown>,
  run: Run,
  withDigest: boolean,
): Promise<Examination<F>> {
  let parsed: P;
  try {
    parsed = await spec.parse(payload, run);
  } catch (err) {
    return { unreadable: err instanceof Error ? err.message : String(err) };
  }
  return { examined: examine(spec, parsed, withDigest) };
}
