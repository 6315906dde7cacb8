/** Why pulling from the tracking server failed; each code has one HTTP status (server/errors.ts reads both). */
export const MLFLOW_ERROR_STATUS = {
  /** A run, experiment, dataset or named artifact is not on the server. */
  MLFLOW_NOT_FOUND: 404,
  /** The request names a run but this service has no SERVICE_MLFLOW_TRACKING_URI: fix the request (send inline). */
  MLFLOW_NOT_CONFIGURED: 400,
  /** The pull would exceed SERVICE_MAX_DOWNLOAD_BYTES or the per-file cap. */
  DOWNLOAD_TOO_LARGE: 413,
  /** The server answered, but not as MLflow does (auth refused, unexpected status, a body that fails the schema). */
  MLFLOW_BAD_RESPONSE: 502,
  /** Connection refused or reset, 5xx after the retries, or no answer within SERVICE_MLFLOW_TIMEOUT_MS. */
  MLFLOW_UNAVAILABLE: 503,
} as const;
export type MlflowErrorCode = keyof typeof MLFLOW_ERROR_STATUS;

/**
 * Seconds a client should wait before retrying a request the tracking server could not serve. The transport has
 * already retried with back-off for about a second, so a server that is down or restarting needs longer than
 * that; ten seconds keeps clients from hammering it while it comes back.
 */
export const MLFLOW_RETRY_AFTER_SECONDS = 10;

/** A tracking-server failure as a value: a closed code, its HTTP status and a message a person can act on. */
export class MlflowError extends Error {
  override name = "MlflowError";
  readonly status: number;
  /** For MLFLOW_UNAVAILABLE: the Retry-After of the 503 answer. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly code: MlflowErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = MLFLOW_ERROR_STATUS[code];
    this.retryAfterSeconds = code === "MLFLOW_UNAVAILABLE" ? MLFLOW_RETRY_AFTER_SECONDS : undefined;
  }
}

/** Guard by name, so an error that crossed a module copy still counts. */
export function isMlflowError(err: unknown): err is MlflowError {
  return err instanceof Error && err.name === "MlflowError" && typeof (err as MlflowError).code === "string";
}
