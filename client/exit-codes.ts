/** The exit codes of `ml-diagnose`: an API for CI scripts, documented in docs/client.md; never renumber. */
export const EXIT = {
  /** The analysis ran and no finding reached --fail-on. */
  ok: 0,
  /** A finding reached the --fail-on severity. */
  gateFailed: 1,
  /** Wrong flags, nothing to analyse, or (with --strict) an unreadable input file. */
  usage: 2,
  /** The service could not be reached, or stayed busy, through every retry. */
  unreachable: 3,
  /** The service answered with an error (400, 404, 413, 500…): its detail is printed. */
  serviceError: 4,
  /** A failure of the command itself (a bug): one line naming it, the stack with ML_DIAGNOSE_DEBUG=1. */
  internal: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
