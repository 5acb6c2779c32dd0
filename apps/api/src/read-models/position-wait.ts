// `?minPosition=P` (docs/api.md): a read answers only once the read model has applied position P, the
// position a command answered, so a client always reads its own writes.
import type { Response } from 'express';
import { z } from 'zod';
import type { ReadModels } from '#read-models';
import { ProblemError } from '../http/problem-error.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';

/** How long a read waits for the projector before answering 503 NOT_YET_CONSISTENT. */
export const READ_YOUR_WRITES_WAIT_MS = 2_000;

export const readQuery = z.strictObject({
  minPosition: z
    .string()
    .regex(/^\d{1,19}$/, 'must be a position (a whole number)')
    .transform(BigInt)
    .optional(),
});

export type ReadQuery = z.output<typeof readQuery>;

/** The pipe of a read's query (`?minPosition`): a malformed one is 400 VALIDATION_FAILED. */
export const validReadQuery = new ZodValidationPipe(readQuery);

export async function awaitMinPosition(readModels: ReadModels, query: ReadQuery, response: Response): Promise<void> {
  if (query.minPosition === undefined) return;
  if (await readModels.waitForPosition(query.minPosition, READ_YOUR_WRITES_WAIT_MS)) return;
  response.setHeader('Retry-After', '1');
  throw new ProblemError(
    503,
    'NOT_YET_CONSISTENT',
    'Not yet consistent',
    `The read model has not reached position ${query.minPosition} yet; retry shortly.`,
    { minPosition: query.minPosition.toString() },
  );
}
