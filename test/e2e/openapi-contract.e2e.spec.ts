// /docs/openapi.json as a contract a client can be generated from (docs/service.md, Operations): every operation
// says its success answer, its refusals (the one Problem component) and its body, the document is valid OpenAPI 3.1,
// and what the running server answers matches the schema the document gives for it, on a representative set of routes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { webhookPayloadSchema, type OpenApiDocument } from '#api';
import { WEBHOOK_EVENT_TYPES } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const PROBLEM = '#/components/schemas/Problem';

let app: RunningApp;
let api: HttpClient;
let document: OpenApiDocument;

beforeAll(async () => {
  app = await startApp({ LOG_LEVEL: 'warn' });
  api = httpClient(app.baseUrl);
  const answer = await api.get('/docs/openapi.json');
  expect(answer.status).toBe(200);
  document = answer.body as OpenApiDocument;
});
afterAll(async () => {
  await app.close();
});

type Operation = OpenApiDocument['paths'][string][string];

function operations(): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]): [string, string, Operation] => [method, path, operation]),
  );
}

/** Answers without content: nothing to describe. */
const contentless = (status: string) => status === '204' || status === '304' || /^3\d\d$/.test(status);

describe('every operation of /docs/openapi.json', () => {
  it('says what its success answers', () => {
    const missing = operations().flatMap(([method, path, operation]) => {
      const successes = Object.entries(operation.responses).filter(([status]) => /^[23]\d\d$/.test(status));
      const described =
        successes.length > 0 &&
        successes.every(([status, response]) => contentless(status) || response.content !== undefined);
      return described
        ? []
        : [
            `${method.toUpperCase()} ${path} (${operation['x-handler']}): no success schema; add \`answer\` to its @Operation`,
          ];
    });
    expect(missing).toEqual([]);
  });

  it('answers every refusal as the one Problem component, but for an answer of its own shape (OFREP, a 503 health report)', () => {
    const refusals = operations().flatMap(([method, path, operation]) =>
      Object.entries(operation.responses)
        .filter(([status]) => status === 'default' || Number(status) >= 400)
        .map(([status, response]) => ({
          key: `${method.toUpperCase()} ${path} ${status}`,
          content: response.content ?? {},
        })),
    );
    const problems = refusals.filter(({ content }) => content['application/problem+json'] !== undefined);
    expect(
      problems
        .filter(({ content }) => content['application/problem+json']?.schema.$ref !== PROBLEM)
        .map(({ key }) => key),
    ).toEqual([]);
    const ownShapes = refusals
      .filter(({ content }) => content['application/problem+json'] === undefined)
      .map(({ key }) => key);
    expect(
      ownShapes.filter(
        (key) =>
          !/^(POST \/ofrep\/v1\/evaluate\/flags(\/\{key\})?|GET \/ofrep\/v1\/event-stream) (400|404)$|^GET \/health(\/ready)? 503$/.test(
            key,
          ),
      ),
    ).toEqual([]);
    expect(problems.length).toBeGreaterThan(300);
    expect(document.components.schemas.Problem).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
    });
    // What any route of its kind can be refused with: a checked body, and a credential.
    const addMember = document.paths['/organizations/{id}/members']?.post;
    expect(Object.keys(addMember?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415', 'default']),
    );
  });

  it('describes the body of every operation that reads one, from the zod schema that checks it', () => {
    const bodies = operations().filter(([, , operation]) => operation.requestBody !== undefined);
    const ofrep = document.paths['/ofrep/v1/evaluate/flags']?.post?.requestBody?.content['application/json']?.schema;
    expect(ofrep).toMatchObject({
      type: 'object',
      required: ['context'],
      properties: { context: { required: ['targetingKey'] } },
    });
    expect(document.paths['/billing/events']?.post?.requestBody).toBeDefined();
    expect(document.paths['/billing/stripe']?.post?.requestBody).toBeDefined();
    // Every POST, PUT and PATCH but those that take nothing (POST /logout, options and starts of a set-up, a resend, a
    // DNS check, a new secret).
    const takesNothing = new Set([
      'SignInController.logout',
      'MembersController.resendInvitation',
      'AccountTwoStepController.startApp',
      'AccountTwoStepController.passkeyRegistrationOptions',
      'SecondStepController.passkeyOptions',
      'SecondStepController.startApp',
      'SecondStepController.passkeyRegistrationOptions',
      'SsoController.verifyDomain',
      'WebhooksController.rotate',
      'WebhooksController.test',
    ]);
    const withoutBody = operations()
      .filter(
        ([method, , operation]) =>
          ['post', 'put', 'patch'].includes(method) &&
          operation.requestBody === undefined &&
          !takesNothing.has(operation['x-handler']),
      )
      .map(([method, path]) => `${method.toUpperCase()} ${path}`);
    expect(withoutBody).toEqual([]);
    expect(bodies.length).toBeGreaterThanOrEqual(36);
  });

  it('gives every webhook type of the catalogue, with an example body that its own schema takes', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const example = document.webhooks[type]?.post.requestBody.content['application/json']?.example;
      expect({ type, parsed: webhookPayloadSchema(type).safeParse(example).success }).toEqual({ type, parsed: true });
    }
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors.map((error) => error.message)).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });
});

describe('what the server answers, against the schema the document gives for it', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const checked: string[] = [];

  /** The answer's body against `paths[path][method].responses[status]` (or `default`), for its media type. */
  function expectDocumented(method: string, path: string, answer: HttpResponse): void {
    const operation = document.paths[path]?.[method];
    if (operation === undefined) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    const response = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (response === undefined)
      throw new Error(
        `${method.toUpperCase()} ${path} answered ${answer.status}, which is not documented: ${answer.text.slice(0, 300)}`,
      );
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0] ?? '';
    const content = response.content?.[mediaType];
    if (content === undefined)
      throw new Error(
        `${method.toUpperCase()} ${path} ${answer.status} answered ${mediaType}, documented: ${Object.keys(response.content ?? {}).join(', ') || 'no content'}`,
      );
    const check = ajv.compile({ ...content.schema, components: document.components });
    const body: unknown = answer.body ?? answer.text;
    if (!check(body))
      throw new Error(
        `${method.toUpperCase()} ${path} ${answer.status}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(body).slice(0, 600)}`,
      );
    checked.push(`${method.toUpperCase()} ${path} ${answer.status}`);
  }

  it('matches on organizations, members, reads, audit, OFREP, usage, health and sign-in, refusals included', async () => {
    const admin = httpClient(app.baseUrl, {
      apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write', 'audit:read']),
    });
    const collector = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['usage:write']) });
    const flags = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['entitlements:read']) });

    const created = await admin.post('/organizations', { name: 'Contract' });
    expectDocumented('post', '/organizations', created);
    const id = created.body.id as string;
    const at = (suffix = '') => `/organizations/${id}${suffix}`;
    expectDocumented(
      'post',
      '/organizations/{id}/plan',
      await admin.post(at('/plan'), { line: 'classic', plan: 'essential' }),
    );
    expectDocumented(
      'post',
      '/organizations/{id}/members',
      await admin.post(at('/members'), { email: 'member@example.com', role: 'admin' }),
    );
    expectDocumented(
      'get',
      '/organizations/{id}/members/invitation-failures',
      await admin.get(at('/members/invitation-failures')),
    );
    expectDocumented(
      'post',
      '/organizations/{id}/sites',
      await admin.post(at('/sites'), { name: 'Site', hostname: 'site.example.com' }),
    );
    expectDocumented('put', '/organizations/{id}/limits', await admin.put(at('/limits'), { users: 20 }));
    expectDocumented('get', '/organizations/{id}', await admin.get(at()));
    expectDocumented(
      'get',
      '/organizations/{id}/notification-recipients',
      await admin.get(at('/notification-recipients')),
    );
    expectDocumented('get', '/organizations/{id}/history', await admin.get(at('/history')));
    expectDocumented('get', '/organizations/{id}/state', await admin.get(at('/state?asOfRevision=1')));
    expectDocumented('get', '/organizations/{id}/history/events', await admin.get(at('/history/events')));
    expectDocumented('get', '/organizations/{id}/history/filters', await admin.get(at('/history/filters')));
    expectDocumented('get', '/organizations/{id}/history/usage', await admin.get(at('/history/usage')));
    expectDocumented(
      'get',
      '/organizations/{id}/history/changes',
      await admin.get(at('/history/changes?asOfRevision=1')),
    );
    expectDocumented(
      'get',
      '/organizations/{id}/history/sign-in-security',
      await admin.get(at('/history/sign-in-security')),
    );
    expectDocumented('get', '/organizations/{id}/two-step-sign-in', await admin.get(at('/two-step-sign-in')));

    expectDocumented('get', '/ofrep/v1/configuration', await flags.get('/ofrep/v1/configuration'));
    expectDocumented(
      'post',
      '/ofrep/v1/evaluate/flags',
      await flags.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: id } }),
    );
    expectDocumented(
      'post',
      '/ofrep/v1/evaluate/flags/{key}',
      await flags.post('/ofrep/v1/evaluate/flags/plan', { context: { targetingKey: id } }),
    );
    expectDocumented(
      'post',
      '/ofrep/v1/evaluate/flags/{key}',
      await flags.post('/ofrep/v1/evaluate/flags/no.such.flag', { context: { targetingKey: id } }),
    );
    expectDocumented('post', '/ofrep/v1/evaluate/flags', await flags.post('/ofrep/v1/evaluate/flags', { context: {} }));
    expectDocumented('get', '/entitlements', await flags.get('/entitlements'));
    const report = { id: 'contract-1', organizationId: id, quantity: 10, occurredAt: new Date().toISOString() };
    expectDocumented('post', '/usage', await collector.post('/usage', { reports: [report] }));

    expectDocumented('get', '/health', await api.get('/health'));
    expectDocumented('get', '/health/live', await api.get('/health/live'));
    expectDocumented('get', '/health/ready', await api.get('/health/ready'));
    expectDocumented('post', '/forgot', await api.post('/forgot', { email: 'nobody@example.com' }));
    expectDocumented('post', '/reset/validity', await api.post('/reset/validity', { token: 'x'.repeat(43) }));
    expectDocumented(
      'post',
      '/two-step-reset/validity',
      await api.post('/two-step-reset/validity', { token: 'x'.repeat(43) }),
    );
    expectDocumented('get', '/docs/openapi.json', await api.get('/docs/openapi.json'));
    expectDocumented('get', '/docs/docs.css', await api.get('/docs/docs.css'));

    // Refusals: problem+json by the one Problem component.
    expectDocumented('post', '/organizations', await admin.post('/organizations', { name: 'x', unknown: true }));
    expectDocumented('post', '/organizations', await api.post('/organizations', { name: 'no key' }));
    expectDocumented('get', '/organizations/{id}', await admin.get('/organizations/no-such-organization'));
    expectDocumented('post', '/login', await api.post('/login', { username: 'nobody', password: 'wrong password' }));
    expectDocumented('get', '/session', await api.get('/session'));
    expectDocumented('post', '/usage', await collector.post('/usage', { reports: [] }));

    expect(checked.length).toBeGreaterThanOrEqual(37);
  });

  it('would catch an answer that does not match (the check is not vacuous)', () => {
    const usage = document.paths['/usage']?.post?.responses['202']?.content?.['application/json']?.schema;
    const check = ajv.compile({ ...usage, components: document.components });
    expect(check({ accepted: 1, duplicates: 0, rejected: [], position: 7 })).toBe(true);
    expect(check({ accepted: '1', duplicates: 0, rejected: [], position: 7 })).toBe(false);
    expect(check({ accepted: 1, duplicates: 0, rejected: [], position: 7, extra: true })).toBe(false);
    const problem = ajv.compile({ $ref: PROBLEM, components: document.components });
    expect(
      problem({
        type: 'urn:chorus:problem:not-found',
        title: 'Not found',
        status: 404,
        detail: 'No.',
        code: 'NOT_FOUND',
        entity: 'organization',
      }),
    ).toBe(true);
    expect(problem({ title: 'Not found', status: 404 })).toBe(false);
  });
});
