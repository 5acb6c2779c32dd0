// /docs/openapi.json under Redocly's `recommended` ruleset, run by the real linter (its CLI, as a person would):
// every operation says its security, its refusals are the Problem component, and the document has servers and a
// license. The document the running server serves, as the other openapi e2e tests read it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { httpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const run = promisify(execFile);

type LintProblem = { ruleId: string; severity: string; message: string; location: { pointer?: string }[] };

let app: RunningApp;
let directory: string;
let documentFile: string;

beforeAll(async () => {
  // As published: production requires PUBLIC_URL (the document's server); development's localhost is for itself.
  app = await startApp({ LOG_LEVEL: 'warn', PUBLIC_URL: 'https://chorus.acme.test' });
  const answer = await httpClient(app.baseUrl).get('/docs/openapi.json');
  expect(answer.status).toBe(200);
  directory = mkdtempSync(join(tmpdir(), 'chorus-openapi-lint-'));
  documentFile = join(directory, 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(answer.body, null, 2));
});
afterAll(async () => {
  await app.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('/docs/openapi.json under Redocly', () => {
  it('has no problem under the `recommended` ruleset', async () => {
    // Exit code 1 on errors: the JSON report on stdout says which, so it is read either way.
    const { stdout } = await run(
      'node_modules/.bin/redocly',
      ['lint', documentFile, '--extends', 'recommended', '--max-problems', '10000', '--format', 'json'],
      // No telemetry nor update check: the test makes no call to the network.
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, timeout: 60_000 },
    ).catch((failure: { stdout?: string; stderr?: string }) => {
      if (failure.stdout === undefined || failure.stdout === '') throw failure;
      return { stdout: failure.stdout };
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
    const problems = report.problems.map(
      ({ ruleId, severity, message, location }) =>
        `${severity} ${ruleId} at ${location.map(({ pointer }) => pointer).join(', ')}: ${message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
