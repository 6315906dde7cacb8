/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The known name closest to a mistyped one, when it is close enough to be what was meant. */
export function closest(typed: string, known: readonly string[]): string | null {
  let best: { name: string; d: number } | null = null;
  for (const name of known) {
    const d = distance(typed, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : null;
}
