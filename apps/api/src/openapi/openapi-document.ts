// The OpenAPI 3.1 document of the HTTP API, generated from the controllers' own routing metadata
// and zod schemas (controller-routes.ts) and the words each route carries (`@Operation`).
import type { ModulesContainer } from '@nestjs/core';
import { z } from 'zod';
import { controllerRoutes, type ControllerRoute } from './controller-routes.js';
import { ScimTokenGuard } from '../directory/scim-token.guard.js';
import { textAnswer, type OperationText, type ResponseText } from '../http/operation.decorator.js';
import { problemDocumentSchema } from '../http/problem-document.js';

type JsonSchema = Record<string, unknown>;

/** One way to be let in: every scheme it names (with an API key's scope); `{}`, without a credential. */
type SecurityRequirement = Record<string, string[]>;

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema }> };
  /**
   * Per status: a success's or another answer's content is its zod schema's output side; every refusal's is the
   * `Problem` component.
   */
  responses: Record<
    string,
    { description: string; headers?: Record<string, JsonSchema>; content?: Record<string, { schema: JsonSchema }> }
  >;
  /** Absent only for a route that says nothing of its callers: the Redocly lint test names it. */
  security?: SecurityRequirement[];
  'x-handler': string;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** What Chorus sends to a customer's webhook endpoint, per event type (docs/webhooks.md). */
  webhooks: Record<string, { post: OutgoingOperation }>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

/** `METHOD /path` in Express's pattern: the key of the route-diff test. */
export function routeKey(route: { method: string; path: string }): string {
  return `${route.method.toUpperCase()} ${route.path}`;
}

/** `/organizations/:id` → `/organizations/{id}` (OpenAPI's path templating). */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

/**
 * What a client sends (`input`): the schema's input side; refinements and transforms it cannot express are left open.
 * What the server answers (`output`): the same zod schema the contract test parses real answers with.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const JSON_TYPE = 'application/json';

function contentOf(
  answer: ResponseText | { mediaType: string | string[]; schema: z.ZodType } | z.ZodType,
): Record<string, { schema: JsonSchema }> {
  if (answer instanceof z.ZodType) return { [JSON_TYPE]: { schema: jsonSchema(answer, 'output') } };
  const schema = jsonSchema(answer.schema, 'output');
  return Object.fromEntries(
    [answer.mediaType ?? JSON_TYPE].flat().map((mediaType) => [mediaType.split(';')[0] ?? mediaType, { schema }]),
  );
}

const problem = { $ref: '#/components/schemas/Problem' };

/** On every command's answer (docs/service.md, Read your own writes). */
const consistencyHeader = {
  description:
    '`committed`: reads on this node (GET /organizations/{id}) already show the change. `pending`: the read models did not apply it within 2 s ' +
    '(another process projects, PROJECTIONS=off, and is behind or stopped); the change is recorded all the same: read with `?minPosition=<position>`. ' +
    'On other nodes, always read your own write with `?minPosition=<position>`.',
  schema: { type: 'string', enum: ['committed', 'pending'] },
};

function statusText(status: number): string {
  if (status === 204) return 'Done; no content';
  if (status === 202) return 'Accepted';
  if (status === 201) return 'Created';
  return 'OK';
}

function accessText(route: ControllerRoute): string | undefined {
  if (route.access === undefined) return undefined;
  const key = `an API key with the scope \`${route.access.scope}\``;
  if (route.access.members === undefined) return `Access: ${key} (not open to signed-in users).`;
  return `Access: ${key}, or a signed-in ${route.access.members.join(', ')} of the organization.`;
}

/**
 * Answers of routes whose controllers are another concern's (metrics): said here rather than there. Every other
 * route says its answer in its own `@Operation`.
 */
const answersSaidHere: Record<string, OperationText['answer']> = {
  'MetricsController.metricsText': textAnswer('text/plain'),
};

const location = { Location: { description: 'Where to go', schema: { type: 'string' } } };

/**
 * The words of the refusals any route of its kind can answer: the page for people says them once, not on every route.
 */
export const commonRefusalWords = {
  invalid: 'VALIDATION_FAILED (with `errors`, each refused field), or INVALID_JSON',
  tooLarge: 'PAYLOAD_TOO_LARGE: the body is over the limit',
  notJson: 'UNSUPPORTED_MEDIA_TYPE: the body is not JSON',
  unauthenticated: 'UNAUTHENTICATED: no or an unknown credential',
  forbidden: 'FORBIDDEN: the credential may not do this (scope, organization or role)',
} as const;

/**
 * The refusals every route of its kind can answer, besides those its `@Operation` names. A body is read (413, 415)
 * before routing, whatever the route (json-body.ts): a request sending one where none is taken is refused all the same.
 */
function commonRefusals(route: ControllerRoute, body: z.ZodType | undefined): Record<number, string> {
  const refusals: Record<number, string> = {};
  const checksInput =
    body !== undefined || route.query !== undefined || route.parameters.some(({ schema }) => schema !== undefined);
  if (checksInput) refusals[400] = commonRefusalWords.invalid;
  refusals[413] = commonRefusalWords.tooLarge;
  refusals[415] = commonRefusalWords.notJson;
  if (route.access !== undefined) {
    refusals[401] = commonRefusalWords.unauthenticated;
    refusals[403] = commonRefusalWords.forbidden;
  }
  return refusals;
}

/** Guards that let a caller in by a scheme of their own, on every route they guard. */
const schemesOfGuards = new Map<unknown, SecurityRequirement[]>([[ScimTokenGuard, [{ scimToken: [] }]]]);

/** Who may call the route, from its @RequireAccess, its guards or its @Credentials; undefined if none says. */
function securityOf(route: ControllerRoute): SecurityRequirement[] | undefined {
  if (route.access !== undefined)
    return [{ apiKey: [route.access.scope] }, ...(route.access.members === undefined ? [] : [{ session: [] }])];
  const guarded = route.guards.flatMap((guard) => schemesOfGuards.get(guard) ?? []);
  if (guarded.length > 0) return guarded;
  const credentials = route.credentials;
  if (credentials === undefined) return undefined;
  // Public: OpenAPI's empty list; a credential that is optional is one requirement among `{}`.
  if (credentials.every((credential) => credential === 'none')) return [];
  return credentials.map((credential) =>
    credential === 'none'
      ? {}
      : typeof credential === 'string'
        ? { [credential]: [] }
        : { apiKey: [credential.apiKey] },
  );
}

function operationOf(route: ControllerRoute, text: OperationText): OpenApiOperation {
  const queryProperties = route.query === undefined ? undefined : jsonSchema(route.query);
  const required = new Set((queryProperties?.required as string[] | undefined) ?? []);
  const parameters: OpenApiOperation['parameters'] = [
    ...route.parameters.map(({ name, schema }) => ({
      name,
      in: 'path' as const,
      required: true,
      schema: schema === undefined ? { type: 'string' } : jsonSchema(schema),
    })),
    ...Object.entries((queryProperties?.properties as Record<string, JsonSchema> | undefined) ?? {}).map(
      ([name, schema]) => ({
        name,
        in: 'query' as const,
        required: required.has(name),
        schema,
      }),
    ),
  ];
  const headers = text.answersPosition ? { headers: { 'Chorus-Consistency': consistencyHeader } } : {};
  const body = route.body ?? text.body;
  const answer = text.answer ?? answersSaidHere[route.handler];
  const ownSuccess = text.responses?.[route.status];
  // A route that only redirects (sign-on) answers its 302, not the status Nest would give it.
  const redirects = answer === undefined && Object.keys(text.responses ?? {}).some((status) => status.startsWith('3'));
  const responses: OpenApiOperation['responses'] = {};
  if (!redirects) {
    responses[String(route.status)] = {
      description: typeof ownSuccess === 'string' ? ownSuccess : (ownSuccess?.description ?? statusText(route.status)),
      ...headers,
      ...(answer === undefined ? {} : { content: contentOf(answer) }),
    };
  }
  const refusals = commonRefusals(route, body);
  const others: [string, string | ResponseText][] = Object.entries({ ...refusals, ...text.responses }).map(
    ([status, response]) => {
      const common = refusals[Number(status)];
      // The route's own words first, then what any route of its kind can answer with the same status.
      return [
        status,
        typeof response === 'string' && common !== undefined && response !== common
          ? `${response}; or ${common}`
          : response,
      ];
    },
  );
  for (const [status, response] of others
    .filter(([status]) => redirects || Number(status) !== route.status)
    .sort(([a], [b]) => Number(a) - Number(b))) {
    if (typeof response !== 'string')
      responses[status] = { description: response.description, content: contentOf(response) };
    else if (Number(status) >= 400)
      responses[status] = { description: response, content: { 'application/problem+json': { schema: problem } } };
    else
      responses[status] = {
        description: response,
        ...(status.startsWith('3') && status !== '304' ? { headers: location } : {}),
      };
  }
  responses.default = {
    description: 'A refusal or a failure (RFC 9457), with a stable `code`',
    content: { 'application/problem+json': { schema: problem } },
  };
  const access = accessText(route);
  const security = securityOf(route);
  const description = [text.description, access].filter((part) => part !== undefined).join('\n\n');
  return {
    operationId: route.handler.replace('.', '_'),
    summary: text.summary,
    ...(description === '' ? {} : { description }),
    tags: [route.path.split('/')[1] ?? ''],
    parameters,
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            required: true as const,
            content: { [text.bodyMediaType ?? 'application/json']: { schema: jsonSchema(body) } },
          },
        }),
    responses,
    ...(security === undefined ? {} : { security }),
    'x-handler': route.handler,
  };
}

/** The routes the document leaves out, because they have no `@Operation` words (the route-diff test names them). */
export function undocumentedRoutes(modules: ModulesContainer): ControllerRoute[] {
  return controllerRoutes(modules).filter((route) => route.text === undefined);
}

export type OutgoingWebhook = { type: string; schema: z.ZodType; example?: unknown };

type OutgoingOperation = {
  operationId: string;
  summary: string;
  requestBody: { required: true; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, { description: string }>;
  security: SecurityRequirement[];
};

export function openApiDocument(
  modules: ModulesContainer,
  info: { productName: string; version: string; publicUrl: string },
  outgoing: readonly OutgoingWebhook[] = [],
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Map<string, number>();
  for (const route of controllerRoutes(modules)) {
    const text = route.text;
    if (text === undefined) continue;
    const operation = operationOf(route, text);
    // A handler on several paths (GET /auth/go and /auth/go/:token) is one operation per path, each with its own id.
    const seen = (operationIds.get(operation.operationId) ?? 0) + 1;
    operationIds.set(operation.operationId, seen);
    if (seen > 1) operation.operationId = `${operation.operationId}_${seen}`;
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${info.productName} API`,
      version: info.version,
      description:
        'Every JSON body is validated: anything malformed, too large or with unknown fields is a 4xx problem+json. ' +
        'Browsers changing state with a session cookie send X-XSRF-TOKEN equal to the XSRF-TOKEN cookie.',
      // Chorus is sold, not published: SPDX's form for a license of one's own, as no listed one applies.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // PUBLIC_URL, the address Chorus gives in its mails, SCIM and SAML metadata: a saved copy still knows its server.
    servers: [{ url: info.publicUrl, description: 'This Chorus (PUBLIC_URL)' }],
    paths,
    webhooks: Object.fromEntries(
      outgoing.map(({ type, schema, example }) => [
        type,
        {
          post: {
            operationId: `webhook_${type.replace(/\W/g, '_')}`,
            summary: `${type}, signed as Standard Webhooks says (webhook-id, webhook-timestamp, webhook-signature)`,
            requestBody: {
              required: true,
              content: {
                [JSON_TYPE]: { schema: jsonSchema(schema, 'output'), ...(example === undefined ? {} : { example }) },
              },
            },
            responses: { '2XX': { description: 'Delivered; anything else is retried, 410 disables the endpoint' } },
            security: [{ webhookSignature: [] }],
          },
        },
      ]),
    ),
    components: {
      schemas: {
        Problem: jsonSchema(problemDocumentSchema, 'output'),
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from `chorus api-key:create`' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'chorus_session',
          description: 'The session cookie POST /login sets (__Host-chorus_session over https)',
        },
        scimToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A directory token from the organization's Directory page (SCIM provisioning)",
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN setting, when it is set' },
        billingSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Billing-Signature',
          description: 't=<unix seconds>,v1=<HMAC-SHA256 of t.body under BILLING_WEBHOOK_SECRET> (docs/api.md)',
        },
        stripeSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Stripe-Signature',
          description:
            "Stripe's signature of the exact body, under a secret of STRIPE_WEBHOOK_SECRET (docs/billing.md)",
        },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description:
            "What a customer's endpoint checks: Chorus's HMAC of webhook-id, webhook-timestamp and the body with the " +
            "endpoint's secret (Standard Webhooks, docs/webhooks.md)",
        },
      },
    },
  };
}
