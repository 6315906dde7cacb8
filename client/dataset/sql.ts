/** SQL text for names and values we did not write ourselves (column names and paths come from the user's files). */

/** A double-quoted identifier: any column name, quotes included, is safe. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A single-quoted string literal. */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A DOUBLE literal that round-trips exactly (a bare decimal literal would be parsed as DECIMAL). */
export function doubleLiteral(x: number): string {
  if (!Number.isFinite(x)) return `'${x > 0 ? "inf" : x < 0 ? "-inf" : "nan"}'::DOUBLE`;
  return `'${String(x)}'::DOUBLE`;
}
