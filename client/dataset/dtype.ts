/** How a column is summarized, from its DuckDB type. */
export type ColumnFamily = "numeric" | "boolean" | "temporal" | "categorical";

const INTEGER_DTYPES: Record<string, string> = {
  TINYINT: "int8",
  SMALLINT: "int16",
  INTEGER: "int32",
  BIGINT: "int64",
  HUGEINT: "int128",
  UTINYINT: "uint8",
  USMALLINT: "uint16",
  UINTEGER: "uint32",
  UBIGINT: "uint64",
  UHUGEINT: "uint128",
};

/** DuckDB's floating-point types: the ones that hold NaN and infinities. */
export const FLOAT_TYPE = /^(DOUBLE|FLOAT|REAL)$/;

/** The family a DuckDB column type belongs to; anything not a number, boolean or time is summarized as text. */
export function familyOf(duckType: string): ColumnFamily {
  if (INTEGER_DTYPES[duckType] || /^(FLOAT|DOUBLE|REAL|DECIMAL)/.test(duckType)) return "numeric";
  if (duckType === "BOOLEAN") return "boolean";
  if (/^(DATE|TIME|TIMESTAMP)/.test(duckType)) return "temporal";
  return "categorical";
}

/**
 * The dtype written into the artifact: pandas' names (int64, float64, bool, string, datetime), which the
 * service's column-kind rules read, with DuckDB's own name lower-cased for nested types.
 */
export function pandasDtypeOf(duckType: string): string {
  const integer = INTEGER_DTYPES[duckType];
  if (integer) return integer;
  if (duckType === "DOUBLE") return "float64";
  if (duckType === "FLOAT" || duckType === "REAL") return "float32";
  if (duckType.startsWith("DECIMAL")) return duckType.toLowerCase();
  if (duckType === "BOOLEAN") return "bool";
  if (duckType === "VARCHAR") return "string";
  if (duckType === "DATE") return "date";
  if (duckType.startsWith("TIMESTAMP")) return "datetime";
  if (duckType.startsWith("TIME")) return "time";
  return duckType.toLowerCase();
}

/** Integers up to 2^53 in magnitude are exact as DOUBLEs; beyond, neighbours share one. */
const DOUBLE_EXACT_INTEGER = 2 ** 53;
/** Decimal digits a DOUBLE holds for any decimal value. */
const DOUBLE_DECIMAL_DIGITS = 15;

/**
 * Whether a numeric column's values are exact, and distinct values stay distinct, as DOUBLEs, given its extremes:
 * then its values are ordered, counted and compared as DOUBLEs (numeric.ts).
 */
export function exactAsDouble(duckType: string, min: number | null, max: number | null): boolean {
  if (/^(FLOAT|DOUBLE|REAL|TINYINT|SMALLINT|INTEGER|UTINYINT|USMALLINT|UINTEGER)$/.test(duckType)) return true;
  const width = /^DECIMAL\((\d+)/.exec(duckType)?.[1];
  if (width !== undefined) return Number(width) <= DOUBLE_DECIMAL_DIGITS;
  return INTEGER_DTYPES[duckType] !== undefined && Math.max(Math.abs(min ?? 0), Math.abs(max ?? 0)) < DOUBLE_EXACT_INTEGER;
}
