/** `10^6` for 1e6: how sizes are named in results. */
export const sizeLabel = (n: number) => `10^${Math.round(Math.log10(n))}`;

/**
 * Measures each size in turn, stopping at the first that fails or times out (larger ones would only fail the
 * same way); the failure is kept to be reported next to what was measured.
 */
export async function measureSizes<T>(sizes: readonly number[], measure: (size: number) => Promise<T>): Promise<{ runs: T[]; failure: string | null }> {
  const runs: T[] = [];
  for (const size of sizes) {
    try {
      runs.push(await measure(size));
    } catch (err) {
      return { runs, failure: `${sizeLabel(size)} points: ${(err as Error).message}` };
    }
  }
  return { runs, failure: null };
}
