// What a route does, in words: the one part of the OpenAPI document the code cannot say. A route without `@Operation`
// is left out of the document, and the route-diff test fails naming it.
import { SetMetadata } from '@nestjs/common';
import { z } from 'zod';
import type { ApiKeyScope } from '#domain';

/**
 * A response other than problem+json: its words and what it holds (`application/json` unless `mediaType` says
 * otherwise).
 */
export type ResponseText = { description: string; schema: z.ZodType; mediaType?: string };

export type OperationText = {
  summary: string;
  description?: string;
  /**
   * Beyond the success and every refusal's problem+json, e.g. `{ 409: 'LIMIT_EXCEEDED: ...' }`: words for a
   * problem+json answer, or a ResponseText for an answer of another shape (a 503 carrying the same report).
   */
  responses?: Record<number, string | ResponseText>;
  /** Sent once this node's read models have applied it (AnswerOnceReadableInterceptor). */
  answersPosition?: true;
  /**
   * What the success answer holds: the single source of its schema in /docs/openapi.json, and what the
   * contract test parses real answers with. A zod schema is JSON; `{ mediaType, schema }` anything else.
   * Left out only for an answer without content (204, a redirect).
   */
  answer?: z.ZodType | { mediaType: string | string[]; schema: z.ZodType };
  /**
   * The body of a route that reads it without a pipe (a signed raw body, a protocol with its own refusals): its shape.
   */
  body?: z.ZodType;
  /** The body's media type when it is not JSON (a SAML identity provider's form). */
  bodyMediaType?: string;
};

export const OPERATION_TEXT = 'chorus:operation-text';

export const Operation = (text: OperationText): MethodDecorator => SetMetadata(OPERATION_TEXT, text);

/**
 * A credential a route takes, by its security scheme in /docs/openapi.json: the session cookie (a half-open one
 * too), an API key with a scope, METRICS_TOKEN, a signed webhook's signature; `none`: it answers without one too.
 */
export type Credential =
  'session' | { apiKey: ApiKeyScope } | 'metricsToken' | 'billingSignature' | 'stripeSignature' | 'none';

export const CREDENTIALS = 'chorus:credentials';

/**
 * The credentials a route without @RequireAccess checks itself, each enough on its own (on a handler, or on a
 * controller class for all of its routes); `@Credentials('none')` for a public one. Only /docs/openapi.json reads it:
 * a route that says none has no `security`, and the Redocly lint test fails naming it.
 */
export const Credentials = (...credentials: [Credential, ...Credential[]]): ClassDecorator & MethodDecorator =>
  SetMetadata(CREDENTIALS, credentials);

export const commandAnswerWords =
  "`{id, revision, position}`: where the organization's stream stands after the command";

/**
 * Revisions and positions are numbers while they are safe integers, decimal strings beyond (command-result.ts's
 * jsonSafe).
 */
export const jsonSafeInteger = z.union([z.int().min(0), z.string().regex(/^\d+$/)]);

/** What every organization command answers (command-result.ts's CommandAnswer). */
export const commandAnswerSchema = z.object({ id: z.string(), revision: jsonSafeInteger, position: jsonSafeInteger });

export const commandAnswerText = {
  description: commandAnswerWords,
  answersPosition: true,
  answer: commandAnswerSchema,
} as const;

/** A text answer (a page, a stylesheet, an export): its media type, its body a string. */
export const textAnswer = (mediaType: string) => ({ mediaType, schema: z.string() });

/** Server-sent events: the stream stays open; each event is `id:`, `event:` and `data:` lines. */
export const eventStreamAnswer = textAnswer('text/event-stream');
