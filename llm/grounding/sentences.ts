import { isSpace } from "./char-classes.js";

/** A piece of text and the separator that followed it, so kept sentences join back as they were written. */
export interface Sentence {
  text: string;
  after: string;
}

/** . ! ? … end a sentence when white space follows (not the point of 0.82 or training.overfitting). */
const isStop = (c: number) => c === 46 || c === 33 || c === 63 || c === 0x2026;
/** Full-width stops (Chinese, Japanese) end one with or without white space. */
const isFullStop = (c: number) => c === 0x3002 || c === 0xff01 || c === 0xff1f;

/** The characters that may end a sentence, searched for by the pattern engine rather than a loop over every character. */
const MAY_END = /[.!?\n\u2026\u3002\uff01\uff1f]/g;

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The sentences of a text, each with the separator after it: a sentence ends at . ! ? … followed by white space,
 * at a full-width stop or at a line break (the white space around it is the separator). Read from one character
 * that may end a sentence to the next, found by the pattern engine (the regular expression with look-behinds this
 * replaces was a fifth of the sentence checks' time).
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    MAY_END.lastIndex = i;
    if (!MAY_END.test(text)) break;
    i = MAY_END.lastIndex - 1;
    const c = text.charCodeAt(i);
    let end = -1;
    let next = -1;
    if ((isStop(c) && i + 1 < text.length && isSpace(text.charCodeAt(i + 1))) || isFullStop(c)) {
      end = i + 1;
      next = skipSpaces(text, end);
    } else if (c === 10) {
      // The white space before a line break belongs to the separator too.
      end = i;
      while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
      next = skipSpaces(text, i + 1);
    }
    if (end < 0) {
      i++;
      continue;
    }
    pushSentence(out, text.slice(start, end), text.slice(end, next));
    start = i = next;
  }
  if (start < text.length) pushSentence(out, text.slice(start), "");
  return out;
}

/** Adds a sentence; an empty one (a separator after a separator) joins the separator before it. */
function pushSentence(out: Sentence[], text: string, after: string): void {
  if (text) out.push({ text, after });
  else if (out.length) out[out.length - 1]!.after += after;
}

/** The kept sentences joined with their separators, without trailing white space. */
export function joinSentences(sentences: readonly Sentence[]): string {
  return sentences.map((s) => s.text + s.after).join("").trim();
}
