/** Seeded random texts over an alphabet of pieces. */
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
