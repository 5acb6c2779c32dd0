// What a route does, in words: the one part of the OpenAPI document the code cannot say. A route without `@Operation`
// is left out of the document, and the route-diff test fails naming it.
import { SetMetadata } from '@nestjs/common';

export type OperationText = {
  summary: string;
  description?: string;
  /** Beyond the success and every refusal's problem+json, e.g. `{ 409: 'LIMIT_EXCEEDED: ...' }`. */
  responses?: Record<number, string>;
  /** Sent once this node's read models have applied it (AnswerOnceReadableInterceptor). */
  answersPosition?: true;
};

export const OPERATION_TEXT = 'chorus:operation-text';

export const Operation = (text: OperationText): MethodDecorator => SetMetadata(OPERATION_TEXT, text);

export const commandAnswerWords = "`{id, revision, position}`: where the organization's stream stands after the command";

export const commandAnswerText = { description: commandAnswerWords, answersPosition: true } as const;
