// Reading your writes (docs/api.md, Reading your writes): a write's 2xx names the position of its last event
// (Chorus-Position) and means its change is visible to reads on this node; a read that names a position
// (Chorus-Min-Position) is answered once this node's read models have applied it, on whichever node it lands.
import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import { READ_MODELS, ReadModels } from '#read-models';
import { ProblemError } from '../http/problem-error.js';
import { requestContextOf } from '../http/request-context.js';
import { awaitMinPosition, READ_YOUR_WRITES_WAIT_MS } from './position-wait.js';

/** `pending`: the bound passed first (the change is recorded all the same). */
export const CONSISTENCY_HEADER = 'Chorus-Consistency';
/** On a write's answer: the position of the last event it appended. */
export const POSITION_HEADER = 'Chorus-Position';
/** On a read: answer only once this node has read that far. */
export const MIN_POSITION_HEADER = 'Chorus-Min-Position';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const POSITION = /^\d{1,19}$/;

export function answeredPosition(body: unknown): bigint | undefined {
  const position = typeof body === 'object' && body !== null ? (body as { position?: unknown }).position : undefined;
  if (typeof position === 'number' && Number.isSafeInteger(position)) return BigInt(position);
  if (typeof position === 'string' && /^-?\d{1,19}$/.test(position)) return BigInt(position);
  return undefined;
}

/** The wait rides on the projector's batched commits: it adds no transaction and no fsync. */
@Injectable()
export class AnswerOnceReadableInterceptor implements NestInterceptor {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    if (READS.has(request.method)) {
      const named = request.get(MIN_POSITION_HEADER);
      if (named === undefined) return next.handle();
      return from(this.readFrom(named, response)).pipe(mergeMap(() => next.handle()));
    }
    return next.handle().pipe(mergeMap((body: unknown) => this.onceReadable(body, request, response)));
  }

  private async readFrom(named: string, response: Response): Promise<void> {
    if (!POSITION.test(named.trim()))
      throw new ProblemError(
        400,
        'VALIDATION_FAILED',
        'The request is not valid',
        `${MIN_POSITION_HEADER} must be a position (a whole number), as a write's ${POSITION_HEADER} names it.`,
        { errors: [{ parameter: MIN_POSITION_HEADER, detail: 'must be a position (a whole number)' }] },
      );
    await awaitMinPosition(this.readModels, { minPosition: BigInt(named.trim()) }, response);
  }

  private async onceReadable(body: unknown, request: Request, response: Response): Promise<unknown> {
    const position = answeredPosition(body) ?? requestContextOf(request)?.writtenUpTo;
    if (position === undefined) return body;
    if (position >= 0n && !response.headersSent) response.setHeader(POSITION_HEADER, position.toString());
    const reached = position < 0n || (await this.readModels.waitForPosition(position, READ_YOUR_WRITES_WAIT_MS));
    if (!response.headersSent) response.setHeader(CONSISTENCY_HEADER, reached ? 'committed' : 'pending');
    return body;
  }
}
