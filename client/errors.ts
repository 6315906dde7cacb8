import { EXIT, type ExitCode } from "./exit-codes.js";

/** What went wrong, as a closed list; each maps to one exit code. */
export type ClientErrorCode = "USAGE" | "INPUT" | "UNREACHABLE" | "SERVICE_ERROR" | "INTERNAL";

const EXIT_BY_CODE: Record<ClientErrorCode, ExitCode> = {
  USAGE: EXIT.usage,
  INPUT: EXIT.usage,
  UNREACHABLE: EXIT.unreachable,
  SERVICE_ERROR: EXIT.serviceError,
  INTERNAL: EXIT.internal,
};

/** A failure the command reports in one message (what happened and what to do) and ends with its exit code. */
export class ClientError extends Error {
  override name = "ClientError";
  readonly exitCode: ExitCode;
  constructor(readonly code: ClientErrorCode, message: string) {
    super(message);
    this.exitCode = EXIT_BY_CODE[code];
  }
}

export function isClientError(err: unknown): err is ClientError {
  return err instanceof Error && err.name === "ClientError";
}
