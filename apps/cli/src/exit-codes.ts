/** The command line's exit codes (documented in docs/service.md, Command line). */
export const ExitCode = {
  ok: 0,
  /** The command was understood and refused (NOT_FOUND, ALREADY_EXISTS, LIMIT_EXCEEDED, ...). */
  refused: 1,
  /** Wrong usage or invalid input: unknown option, missing argument, VALIDATION_FAILED, INVALID_HOSTNAME. */
  invalidInput: 2,
  /** The configuration (environment, .env) is invalid. */
  invalidConfiguration: 3,
  /** Something failed on our side (e.g. the event store is unreachable). */
  failed: 4,
} as const;
