/** A piece of text and the separator that followed it, so kept sentences join back as they were written. */
export interface Sentence {
  text: string;
  after: string;
}

// A sentence ends at . ! ? … followed by white space (not the point of 0.82 or training.overfitting), at a
// full-width stop (Chinese, Japanese) or at a line break; the white space around it is the separator.
const BOUNDARY = /((?<=[.!?…])\s+|(?<=[。！？])\s*|\s*\n\s*)/u;

/** The sentences of a text, each with the separator after it; an empty piece joins the separator before it. */
export function splitSentences(text: string): Sentence[] {
  const parts = text.split(BOUNDARY);
  const out: Sentence[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const after = parts[i + 1] ?? "";
    if (parts[i]) out.push({ text: parts[i]!, after });
    else if (out.length) out[out.length - 1]!.after += after;
  }
  return out;
}

/** The kept sentences joined with their separators, without trailing white space. */
export function joinSentences(sentences: readonly Sentence[]): string {
  return sentences.map((s) => s.text + s.after).join("").trim();
}
