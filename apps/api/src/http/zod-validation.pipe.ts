import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ProblemError } from './problem-error.js';

/** One refused field, in RFC 9457's style: `pointer` into the JSON body, or the `parameter` name. */
export type ValidationIssue = { pointer: string; detail: string } | { parameter: string; detail: string };

function issuesOf(error: z.ZodError, metadata: ArgumentMetadata): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (metadata.type === 'body')
      return {
        pointer: `#/${path.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
        detail: issue.message,
      };
    return { parameter: metadata.data ?? path[0] ?? '', detail: issue.message };
  });
}

/** Validates a body, parameter or query with a zod schema; anything refused is 400 VALIDATION_FAILED with `errors`. */
@Injectable()
export class ZodValidationPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.output<Schema>> {
  constructor(readonly schema: Schema) {}

  transform(value: unknown, metadata: ArgumentMetadata): z.output<Schema> {
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const errors = issuesOf(result.error, metadata);
    const detail = errors
      .map((issue) =>
        'pointer' in issue
          ? `${issue.pointer.slice(2) || 'body'}: ${issue.detail}`
          : `${issue.parameter}: ${issue.detail}`,
      )
      .join('; ');
    throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail, { errors });
  }
}
