// A client generated from the served /docs/openapi.json has types (docs/service.md, Operations): openapi-typescript
// writes the `paths` type into a temp folder, and `tsc --strict` accepts a typed use of the members, OFREP bulk
// evaluation and usage routes, and refuses a use with a wrong field name (so the check cannot pass vacuously).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { httpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const openapiTypescript = join(root, 'node_modules/openapi-typescript/bin/cli.js');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

let app: RunningApp;
let folder: string;

beforeAll(async () => {
  app = await startApp({ LOG_LEVEL: 'warn' });
  folder = mkdtempSync(join(tmpdir(), 'chorus-openapi-client-'));
  const answer = await httpClient(app.baseUrl).get('/docs/openapi.json');
  expect(answer.status).toBe(200);
  writeFileSync(join(folder, 'openapi.json'), answer.text);
});
afterAll(async () => {
  await app.close();
  rmSync(folder, { recursive: true, force: true });
});

const typed = `import type { paths } from './schema.js';

type Json<Content> = Content extends { 'application/json': infer Body } ? Body : never;

// POST /organizations/{id}/members and GET .../members/invitation-failures
type AddMember = paths['/organizations/{id}/members']['post'];
export const member: Json<AddMember['requestBody']['content']> = { email: 'someone@example.com', role: 'admin', chorusUser: true };
declare const added: Json<AddMember['responses'][201]['content']>;
export const userId: string = added.userId;
export const invitation: 'pending' | 'none' = added.invitation;
export const revision: number | string = added.revision;
declare const failures: Json<paths['/organizations/{id}/members/invitation-failures']['get']['responses'][200]['content']>;
export const reason: 'address_refused' | 'mail_server_refused' | undefined = failures.failures[0]?.reason;
export const addMemberPath: AddMember['parameters']['path'] = { id: 'acme' };

// POST /ofrep/v1/evaluate/flags
type Bulk = paths['/ofrep/v1/evaluate/flags']['post'];
export const evaluate: Json<Bulk['requestBody']['content']> = { context: { targetingKey: 'acme', country: 'NL' } };
declare const evaluated: Json<Bulk['responses'][200]['content']>;
export const firstKey: string | undefined = evaluated.flags[0]?.key;
export const stream: string | undefined = evaluated.eventStreams[0]?.endpoint.requestUri;
declare const ofrepError: Json<Bulk['responses'][400]['content']>;
export const errorCode: 'PARSE_ERROR' | 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'GENERAL' = ofrepError.errorCode;

// POST /usage
type Usage = paths['/usage']['post'];
export const usage: Json<Usage['requestBody']['content']> = {
  reports: [{ id: 'report-1', organizationId: 'acme', quantity: 10, occurredAt: '2026-11-25T10:00:00Z' }],
};
declare const counted: Json<Usage['responses'][202]['content']>;
export const accepted: number = counted.accepted;
export const rejectedCode: 'OCCURRED_AT_OUT_OF_RANGE' | 'REPORT_ID_REUSED' | undefined = counted.rejected[0]?.code;
declare const refused: Usage['responses'][409]['content']['application/problem+json'];
export const problemCode: string = refused.code;
`;

// Each line a mistake a generated client must catch; each is expected in tsc's errors, by its line.
const wrong = `import type { paths } from './schema.js';

type Json<Content> = Content extends { 'application/json': infer Body } ? Body : never;
type AddMember = paths['/organizations/{id}/members']['post'];
type Usage = paths['/usage']['post'];
declare const counted: Json<Usage['responses'][202]['content']>;

export const member: Json<AddMember['requestBody']['content']> = { mail: 'someone@example.com', role: 'admin' };
export const role: Json<AddMember['requestBody']['content']> = { email: 'someone@example.com', role: 'emperor' };
export const usage: Json<Usage['requestBody']['content']> = { reports: [{ id: 'r', organizationId: 'acme', quantity: '10', occurredAt: 'now' }] };
export const accepted: number = counted.acceptedCount;
`;

async function typeCheck(file: string): Promise<{ ok: boolean; output: string }> {
  const flags = [
    '--noEmit',
    '--strict',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--types',
    'node',
  ];
  try {
    const { stdout } = await run(
      process.execPath,
      [tsc, ...flags, '--typeRoots', join(root, 'node_modules/@types'), join(folder, file)],
      { cwd: folder },
    );
    return { ok: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('a client generated with openapi-typescript from /docs/openapi.json', () => {
  it('types the members, OFREP bulk evaluation and usage calls, and refuses wrong ones', async () => {
    await run(
      process.execPath,
      [openapiTypescript, join(folder, 'openapi.json'), '--output', join(folder, 'schema.d.ts')],
      { cwd: folder },
    );
    const schema = readFileSync(join(folder, 'schema.d.ts'), 'utf8');
    expect(schema).toContain('"/organizations/{id}/members"');
    expect(schema).toContain('Problem');

    writeFileSync(join(folder, 'typed.ts'), typed);
    writeFileSync(join(folder, 'wrong.ts'), wrong);
    const [right, wrongUse] = await Promise.all([typeCheck('typed.ts'), typeCheck('wrong.ts')]);
    expect(right.output).toBe('');
    expect(right.ok).toBe(true);

    expect(wrongUse.ok).toBe(false);
    const failedLines = new Set(
      [...wrongUse.output.matchAll(/wrong\.ts\((\d+),\d+\): error/g)].map(([, line]) => Number(line)),
    );
    expect([...failedLines].sort((a, b) => a - b)).toEqual([8, 9, 10, 11]);
    expect(wrongUse.output).toContain("'mail'");
    expect(wrongUse.output).toContain("'acceptedCount'");
  }, 120_000);
});
