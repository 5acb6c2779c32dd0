// What a route does, in words, written on the route itself: the one part of the OpenAPI document the
// code cannot say. Paths, parameters, bodies, statuses and access come from the controllers' own
// metadata (controller-routes.ts). A route without `@Operation` is left out of the document, and the
// route-diff test (test/e2e/openapi.e2e.spec.ts) fails naming it.
import { SetMetadata } from '@nestjs/common';

export type OperationText = {
  summary: string;
  description?: string;
  /** Answers beyond the success (and every refusal's problem+json), e.g. `{ 409: 'LIMIT_EXCEEDED: ...' }`. */
  responses?: Record<number, string>;
  /**
   * The answer names the global position of the change (every command's does): it is sent once this node's
   * read models have applied it, and says so in `Chorus-Consistency` (AnswerOnceReadableInterceptor).
   */
  answersPosition?: true;
};

export const OPERATION_TEXT = 'chorus:operation-text';

export const Operation = (text: OperationText): MethodDecorator => SetMetadata(OPERATION_TEXT, text);

/** The description of every organization command's answer. */
export const commandAnswerWords = "`{id, revision, position}`: where the organization's stream stands after the command";

/** The words and the flag of an organization command's answer, for `@Operation({ summary, ...commandAnswerText })`. */
export const commandAnswerText = { description: commandAnswerWords, answersPosition: true } as const;
