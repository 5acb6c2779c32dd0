import { HttpException } from '@nestjs/common';

/** Extension members of a problem document beyond the RFC 9457 ones (e.g. resource, limit, count, errors). */
export type ProblemExtensions = Record<string, unknown>;

/**
 * An HTTP refusal with a stable code, answered as application/problem+json by the exception filter.
 * Throw it from guards, pipes, middleware or controllers: `throw new ProblemError(403, 'XSRF_INVALID', 'XSRF token
 * missing or wrong')`.
 */
export class ProblemError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly extensions: ProblemExtensions = {},
  ) {
    super(detail ?? title, status);
    this.name = 'ProblemError';
  }
}
