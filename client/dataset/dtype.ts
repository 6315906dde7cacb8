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
