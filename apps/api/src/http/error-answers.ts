// How a feature's errors are answered, registered by the feature itself: the status and title of each refusal code
// it raises, and, for callers that read a protocol's own error shape (SCIM, OFREP), its own answerer. The one
// exception filter asks this registry and knows no feature.
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { DomainErrorCode } from '#domain';

/** `contentType`: application/json unless the protocol names its own (SCIM's application/scim+json). */
export type ErrorAnswer = {
  status: number;
  body: unknown;
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
};

/** Undefined: not this feature's error, or not on its routes. */
export type ErrorAnswerer = (exception: unknown, request: Request) => ErrorAnswer | undefined;

/** A refusal code's HTTP answer; its words (the detail) are the refusal's own message. */
export type RefusalAnswer = {
  status: number;
  title: string;
  /** A refused `field` in the details is also named as a JSON pointer, as the request schema's refusals are. */
  pointsAtField?: true;
};

export type RefusalAnswers = Readonly<Partial<Record<DomainErrorCode, RefusalAnswer>>>;

export interface RefusalLookup {
  refusalOf(code: string): RefusalAnswer | undefined;
}

@Injectable()
export class ErrorAnswers implements RefusalLookup {
  private readonly answerers: ErrorAnswerer[] = [];
  private readonly refusals = new Map<string, RefusalAnswer>();

  /** A code has one answer: a second feature registering it is a mistake found at start-up. */
  registerRefusals(refusals: RefusalAnswers): void {
    for (const [code, answer] of Object.entries(refusals)) {
      if (this.refusals.has(code)) throw new Error(`The refusal ${code} is registered twice`);
      this.refusals.set(code, answer);
    }
  }

  registerProtocol(answerer: ErrorAnswerer): void {
    this.answerers.push(answerer);
  }

  refusalOf(code: string): RefusalAnswer | undefined {
    return this.refusals.get(code);
  }

  /** The registered codes, for the test that every refusal of the domain has its answer. */
  refusalCodes(): string[] {
    return [...this.refusals.keys()];
  }

  answer(exception: unknown, request: Request): ErrorAnswer | undefined {
    for (const answerer of this.answerers) {
      const answer = answerer(exception, request);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }
}
