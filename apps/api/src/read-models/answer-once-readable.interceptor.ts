// A command's 2xx means its change is visible to reads on this node (docs/service.md, Read your own writes).
import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { mergeMap, type Observable } from 'rxjs';
import { READ_MODELS, ReadModels } from '#read-models';
import { READ_YOUR_WRITES_WAIT_MS } from './position-wait.js';

/** `pending`: the bound passed first (the change is recorded all the same). */
export const CONSISTENCY_HEADER = 'Chorus-Consistency';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
    if (context.getType() !== 'http' || READS.has(context.switchToHttp().getRequest<Request>().method))
      return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(mergeMap((body: unknown) => this.onceReadable(body, response)));
  }

  private async onceReadable(body: unknown, response: Response): Promise<unknown> {
    const position = answeredPosition(body);
    if (position === undefined) return body;
    const reached = position < 0n || (await this.readModels.waitForPosition(position, READ_YOUR_WRITES_WAIT_MS));
    if (!response.headersSent) response.setHeader(CONSISTENCY_HEADER, reached ? 'committed' : 'pending');
    return body;
  }
}
