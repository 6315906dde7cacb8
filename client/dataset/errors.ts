/** Why a data file could not be turned into statistics; the CLI exits with code 2 on any of them. */
export const DATASET_ERROR_CODES = [
  /** The file is missing, unreadable, empty or in a format we do not read. */
  "UNREADABLE_FILE",
  /** The CSV/TSV has no header row (its first line looks like data). */
  "NO_HEADER",
  /** A CSV/TSV line has more or fewer fields than the header. */
  "RAGGED_ROWS",
  /** A column holds values of more than one type (numbers and text). */
  "MIXED_TYPES",
  /** `--target` names no column of the file. */
  "UNKNOWN_TARGET",
  /** `--time-column` names no column of the file. */
  "UNKNOWN_TIME_COLUMN",
] as const;
export type DatasetErrorCode = (typeof DATASET_ERROR_CODES)[number];

/** A bad input file as a value: a closed code, where (file, column, line) and what to do, in one message. */
export class DatasetError extends Error {
  override name = "DatasetError";
  constructor(
    readonly code: DatasetErrorCode,
    message: string,
    readonly where: { file: string; column?: string; line?: number },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Guard by name, so an error that crossed a module copy still counts. */
export function isDatasetError(e: unknown): e is DatasetError {
  return e instanceof Error && e.name === "DatasetError";
}
