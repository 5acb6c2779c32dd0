// The OpenAPI 3.1 document of the HTTP API, generated from the controllers' own routing metadata
// and zod schemas (controller-routes.ts) and the words each route carries (`@Operation`).
import type { ModulesContainer } from '@nestjs/core';
import { z } from 'zod';
import { controllerRoutes, type ControllerRoute } from './controller-routes.js';
import type { OperationText } from '../http/operation.decorator.js';

type JsonSchema = Record<string, unknown>;

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { description: string; headers?: Record<string, JsonSchema>; content?: Record<string, { schema: JsonSchema }> }>;
  security?: Record<string, string[]>[];
  'x-handler': string;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
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

/** What a client sends: the schema's input side; refinements and transforms it cannot express are left open. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
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

function operationOf(route: ControllerRoute, text: OperationText): OpenApiOperation {
  const queryProperties = route.query === undefined ? undefined : jsonSchema(route.query);
  const required = new Set((queryProperties?.required as string[] | undefined) ?? []);
  const parameters: OpenApiOperation['parameters'] = [
    ...route.parameters.map(({ name, schema }) => ({ name, in: 'path' as const, required: true, schema: schema === undefined ? { type: 'string' } : jsonSchema(schema) })),
    ...Object.entries((queryProperties?.properties as Record<string, JsonSchema> | undefined) ?? {}).map(([name, schema]) => ({
      name,
      in: 'query' as const,
      required: required.has(name),
      schema,
    })),
  ];
  const headers = text.answersPosition ? { headers: { 'Chorus-Consistency': consistencyHeader } } : {};
  const success = { description: statusText(route.status), ...headers };
  const responses: OpenApiOperation['responses'] = { [String(route.status)]: success };
  for (const [status, description] of Object.entries(text.responses ?? {})) {
    responses[status] = Number(status) >= 400 ? { description, content: { 'application/problem+json': { schema: problem } } } : { description };
  }
  responses.default = { description: 'A refusal or a failure (RFC 9457), with a stable `code`', content: { 'application/problem+json': { schema: problem } } };
  const access = accessText(route);
  const description = [text.description, access].filter((part) => part !== undefined).join('\n\n');
  return {
    operationId: route.handler.replace('.', '_'),
    summary: text.summary,
    ...(description === '' ? {} : { description }),
    tags: [route.path.split('/')[1] ?? ''],
    parameters,
    ...(route.body === undefined ? {} : { requestBody: { required: true as const, content: { 'application/json': { schema: jsonSchema(route.body) } } } }),
    responses,
    ...(route.access === undefined
      ? {}
      : { security: [{ apiKey: [route.access.scope] }, ...(route.access.members === undefined ? [] : [{ session: [] }])] }),
    'x-handler': route.handler,
  };
}

/** The routes the document leaves out, because they have no `@Operation` words (the route-diff test names them). */
export function undocumentedRoutes(modules: ModulesContainer): ControllerRoute[] {
  return controllerRoutes(modules).filter((route) => route.text === undefined);
}

export function openApiDocument(modules: ModulesContainer, info: { productName: string; version: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of controllerRoutes(modules)) {
    const text = route.text;
    if (text === undefined) continue;
    (paths[openApiPath(route.path)] ??= {})[route.method] = operationOf(route, text);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${info.productName} API`,
      version: info.version,
      description:
        'Every JSON body is validated: anything malformed, too large or with unknown fields is a 4xx problem+json. ' +
        'Browsers changing state with a session cookie send X-XSRF-TOKEN equal to the XSRF-TOKEN cookie.',
    },
    paths,
    components: {
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string', description: 'Stable UPPER_SNAKE identifier, e.g. VALIDATION_FAILED, LIMIT_EXCEEDED' },
          },
        },
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from `chorus api-key:create`' },
        session: { type: 'apiKey', in: 'cookie', name: 'chorus_session', description: 'The session cookie POST /login sets (__Host-chorus_session over https)' },
      },
    },
  };
}
