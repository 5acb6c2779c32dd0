import { HttpError } from '../lib/http-client';
import type { Problem } from './contract';

export function asProblem(error: unknown): Problem {
  if (error instanceof HttpError) {
    if (error.code === 'ERR_CANCELED') return { status: 0, code: 'CANCELED', detail: 'canceled' };
    if (error.code === 'ERR_NETWORK') return { status: 0, code: 'NETWORK', detail: error.message };
    const body = error.response?.data;
    const status = error.response?.status ?? 0;
    if (typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string') {
      const problem = body as Record<string, unknown>;
      return {
        ...problem,
        status,
        code: problem.code as string,
        detail: typeof problem.detail === 'string' ? problem.detail : '',
      };
    }
    return { status, code: status >= 500 ? 'INTERNAL' : 'UNEXPECTED', detail: error.message };
  }
  return { status: 0, code: 'UNEXPECTED', detail: error instanceof Error ? error.message : String(error) };
}

export function problemOf(error: unknown): Problem {
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { status?: unknown }).status === 'number'
  ) {
    return error as Problem;
  }
  return { status: 0, code: 'UNEXPECTED', detail: error instanceof Error ? error.message : '' };
}
