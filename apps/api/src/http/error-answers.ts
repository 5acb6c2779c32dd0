// A feature's own answer to errors on its routes, when its callers read another shape than problem+json (a
// protocol's error format): registered by the feature, asked by the one exception filter before anything else.
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

/** `contentType`: application/json unless the protocol names its own (SCIM's application/scim+json). */
export type ErrorAnswer = {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
};

/** Undefined: not this feature's error, or not on its routes. */
export type ErrorAnswerer = (exception: unknown, request: Request) => ErrorAnswer | undefined;

@Injectable()
export class ErrorAnswers {
  private readonly answerers: ErrorAnswerer[] = [];

  register(answerer: ErrorAnswerer): void {
    this.answerers.push(answerer);
  }

  answer(exception: unknown, request: Request): ErrorAnswer | undefined {
    for (const answerer of this.answerers) {
      const answer = answerer(exception, request);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }
}
