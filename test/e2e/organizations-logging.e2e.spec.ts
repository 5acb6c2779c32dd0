// What the service logs about organization requests: one JSON line per request with its correlation id,
// unexpected failures with the correlation id and the stack (answered without internals), never a credential.
import { afterEach, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { httpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('request logs', () => {
  it('write one line per request with its correlation id, actor, route and status, and no credential', async () => {
    running = await startApp();
    const apiKey = await createApiKey(running.app, ['organizations:write']);
    const api = httpClient(running.baseUrl, { apiKey });

    await api.post('/organizations', { name: 'Logged' }, { headers: { 'X-Correlation-Id': 'log-test-1' } });

    const lines = running.logs.filter((line) => String(line.correlationId).endsWith(':log-test-1'));
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request completed',
        method: 'POST',
        path: '/organizations',
        status: 201,
        actor: expect.stringMatching(/^api-key:/),
      }),
    );
    // chrs_<24 hex>_ is 30 characters; the secret follows.
    expect(JSON.stringify(running.logs)).not.toContain(apiKey.slice(30));
  });

  it('name the path of requests answered by middleware (an XSRF refusal, a page), never a reset token', async () => {
    running = await startApp();
    const xsrf = await fetch(`${running.baseUrl}/logout`, {
      method: 'POST',
      headers: { Cookie: 'chorus_session=whatever', 'X-Correlation-Id': 'log-xsrf' },
    });
    expect(xsrf.status).toBe(403);
    await fetch(`${running.baseUrl}/reset/secret-token-value`, {
      headers: { Accept: 'text/html', 'X-Correlation-Id': 'log-page' },
    });

    // No caller identified: Chorus's own id, and the one sent beside it.
    const completed = (id: string) =>
      running?.logs.find((line) => line.callerCorrelationId === id && line.msg === 'request completed');
    expect(completed('log-xsrf')).toMatchObject({ method: 'POST', path: '/logout', status: 403 });
    expect(completed('log-page')).toMatchObject({ method: 'GET', path: '/reset/[REDACTED]' });
    // A request without a principal: no actor field at all, the fields in their order.
    expect(Object.keys(completed('log-xsrf') ?? {})).toEqual([
      'level',
      'time',
      'service',
      'correlationId',
      'callerCorrelationId',
      'method',
      'path',
      'status',
      'durationMs',
      'msg',
    ]);
    expect(JSON.stringify(running.logs)).not.toContain('secret-token-value');
  });

  it('log an unexpected failure with its correlation id and answer 500 INTERNAL without internals', async () => {
    running = await startApp();
    const api = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:write']) });
    // The organization's stream can no longer be read (API keys still can): an error the caller must not see.
    const store = running.store;
    const readStream = store.readStream.bind(store);
    store.readStream = (streamId, options) =>
      streamId.startsWith('organization-')
        ? Promise.reject(new Error('disk /var/lib/chorus/events.sqlite is on fire'))
        : readStream(streamId, options);

    const response = await api.post(
      '/organizations/acme/plan',
      { line: 'classic', plan: 'essential' },
      { headers: { 'X-Correlation-Id': 'log-test-2' } },
    );

    expect(response.status).toBe(500);
    const correlationId = response.headers.get('x-correlation-id');
    expect(correlationId).toMatch(/^api-key:[0-9a-f]{24}:log-test-2$/);
    expect(response.body).toMatchObject({ code: 'INTERNAL', correlationId });
    expect(response.text).not.toContain('fire');
    expect(running.logs).toContainEqual(
      // The actor comes from the request context the line was written in (AsyncLocalStorage), not from the filter.
      expect.objectContaining({
        level: 'error',
        correlationId,
        actor: expect.stringMatching(/^api-key:/),
        err: expect.objectContaining({ message: expect.stringContaining('on fire'), stack: expect.any(String) }),
      }),
    );
  });
});
