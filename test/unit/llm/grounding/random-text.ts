/** Seeded random texts over an alphabet that mixes what the grounding pass scans by character code. */
export function randomTexts(alphabet: readonly string[], count: number, maxLength: number, seed = 20): string[] {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const length = Math.floor(random() * maxLength);
    let text = "";
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    out.push(text);
  }
  return out;
}

/** Letters of several scripts and cases, astral letters and lone surrogates, digits, spaces and marks. */
export const MIXED = ["a", "Z", "e", "s", "_", "7", " ", " ", ".", "/", "'", "[", "]", "é", "É", "ß", "ñ", "σ", "Ω", "日", "本", "𝐀", "𝑥", "\ud835", "\udc00", "-", "’", "Ⅳ", "\u00a0", "\n", "=", "#", "%", ",", "İ", "ǅ", "ª"];
